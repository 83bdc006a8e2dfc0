/**
 * The transport-independent entry point for every request: the Electron ipcMain
 * wrapper, the harness's WebSocket bridge and unit tests all call `dispatch`.
 * It accepts only channels of the contract, validates the argument with the
 * contract's schema, and turns every failure into a whole AppError with no
 * stack trace and no token in it.
 */
import type { z } from 'zod';
import {
  requestSchemas,
  type Channel,
  type HandlerContext,
  type Handlers,
  type Result,
} from '../../shared/ipc.ts';
import { defaultMessage } from '../api/errors.ts';
import { scrub, scrubDeep } from '../secrets/scrub.ts';
import { toAppError } from './errors.ts';

export function isChannel(channel: unknown): channel is Channel {
  return typeof channel === 'string' && Object.hasOwn(requestSchemas, channel);
}

/** A readable sentence from schema issues; never the rejected values (they may hold a token). */
export function describeInvalidArgument(channel: Channel, error: z.ZodError): string {
  const parts = error.issues.slice(0, 3).map((issue) => {
    const where = issue.path.length ? issue.path.join('.') : 'argument';
    return `${where}: ${issue.message}`;
  });
  return `Invalid request for ${channel}: ${parts.join('; ')}.`;
}

export type Logger = (message: string) => void;

const defaultLogger: Logger = (message) => console.error(message);

export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  arg: unknown,
  ctx: HandlerContext,
  log: Logger = defaultLogger,
): Promise<Result<unknown>> {
  if (!isChannel(channel))
    return { ok: false, error: { code: 'unknown-channel', message: defaultMessage('unknown-channel') } };
  const parsed = requestSchemas[channel].safeParse(arg);
  if (!parsed.success) {
    return {
      ok: false,
      error: { code: 'invalid-argument', message: scrub(describeInvalidArgument(channel, parsed.error)) },
    };
  }
  try {
    const handler = handlers[channel] as (arg: unknown, ctx: HandlerContext) => Promise<unknown>;
    // results carry API text too (e-mails, replay outcomes): scrubbed like errors
    return { ok: true, value: scrubDeep(await handler(parsed.data, ctx)) };
  } catch (err) {
    const error = toAppError(err);
    if (error.code === 'internal') {
      // the details go to the log (scrubbed), never to the renderer
      log(
        scrub(
          `[fieldbook] ${channel} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
        ),
      );
    }
    return { ok: false, error };
  }
}
