/**
 * The Electron side of the contract's transport: one `ipcMain.handle` per channel,
 * each checking the sender before anything else, then handing the call to
 * `dispatch` (which validates the argument and wraps the result). Written against
 * the small slice of Electron it uses so it is tested without Electron.
 */
import type {
  AppError,
  Channel,
  EventName,
  EventPayloads,
  HandlerContext,
  Result,
} from '../../shared/ipc.ts';
import { describeSenderFrame, isTrustedSender, type FrameLike } from './sender.ts';

export interface EventSink {
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

export interface InvokeEventLike {
  readonly senderFrame: FrameLike | null;
  readonly sender: EventSink;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, arg: unknown) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export type Dispatch = (channel: unknown, arg: unknown, ctx: HandlerContext) => Promise<Result<unknown>>;

export const FORBIDDEN_SENDER: AppError = {
  code: 'forbidden-sender',
  message: 'This request did not come from the Fieldbook window and was refused.',
};

/** Events go back to the web contents that asked, unless it is gone (closed window). */
export function contextFor(sink: EventSink): HandlerContext {
  return {
    emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
      if (!sink.isDestroyed()) sink.send(event, payload);
    },
  };
}

/** Registers every channel; returns a function that removes them again. */
export function registerIpcTransport(
  ipcMain: IpcMainLike,
  channels: readonly Channel[],
  dispatch: Dispatch,
  devOrigin?: string | null,
): () => void {
  for (const channel of channels) {
    ipcMain.handle(channel, async (event, arg) => {
      if (!isTrustedSender(describeSenderFrame(event.senderFrame), devOrigin)) {
        return { ok: false, error: FORBIDDEN_SENDER } satisfies Result<never>;
      }
      return dispatch(channel, arg, contextFor(event.sender));
    });
  }
  return () => {
    for (const channel of channels) ipcMain.removeHandler(channel);
  };
}
