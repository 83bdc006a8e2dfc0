/**
 * How the replay reads the server's state of an operation's target, for the
 * conflict check (updates) and the verification before a resend (creates,
 * grants, deletes): each kind's read is in kinds/ (`readState` in kinds.ts looks
 * it up) and goes through `list` or `one` here. Only routes whose shape the spec
 * gives are relied on where possible; every answer is validated before it is trusted.
 */
import { z } from 'zod';
import { isStatusBody, schemas, type SchemaName } from '../../shared/api/index.ts';
import type { AppError } from '../../shared/ipc.ts';
import { parseRecords } from '../api/field-length.ts';
import { recordIssue } from '../api/record-issue.ts';

export interface ReplayClient {
  request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    opts?: {
      query?: Record<string, string | number>;
      body?: unknown;
      retry?: 'auto' | 'none';
      signal?: AbortSignal;
    },
  ): Promise<{ httpcode: number; body: unknown; statusBody: unknown }>;
}

/** What the server holds for a target: absent, or present with its fields (in the op's field names). */
export type ServerState =
  { present: false } | { present: true; record: Record<string, unknown>; id?: number | string };

export const ABSENT: ServerState = { present: false };

export class ReplayReadError extends Error {
  readonly appError: AppError;
  constructor(appError: AppError) {
    super(appError.message);
    this.appError = appError;
  }
}

/** "The platform's answer could not be read: row 1, Ann Lee: the status is not text." (no route: record-issue.ts) */
function malformed(why: string): ReplayReadError {
  return new ReplayReadError({
    code: 'malformed-response',
    message: `The platform’s answer could not be read: ${why}.`,
  });
}

/**
 * Items of a list answer: the wrapper's array, [] for 901, the object itself when it comes unwrapped.
 * A record that fails validation is named in words by its row (counted from `startrow`), the record and the field.
 */
export function itemsOf<K extends SchemaName>(
  body: unknown,
  wrapperKeys: readonly string[],
  schema: K,
  startrow = 1,
): z.output<(typeof schemas)[K]>[] {
  if (isStatusBody(body)) {
    if (body.statuscode === 901) return [];
    throw malformed('it holds a status, not the records asked for');
  }
  if (body === null || typeof body !== 'object') throw malformed('it holds no records');
  const obj = body as Record<string, unknown>;
  const key = wrapperKeys.find((k) => Array.isArray(obj[k]));
  const raw: unknown[] = key ? (obj[key] as unknown[]) : [obj];
  const parsed = parseRecords(schema, raw);
  if (!parsed.success) throw malformed(recordIssue(parsed.error, raw, schema, startrow));
  return parsed.data;
}

export async function list<K extends SchemaName>(
  client: ReplayClient,
  path: string,
  wrapperKeys: readonly string[],
  schema: K,
  signal: AbortSignal | undefined,
  query: Record<string, string | number> = {},
): Promise<z.output<(typeof schemas)[K]>[]> {
  const answer = await client.request('GET', path, {
    query: { startrow: 1, limit: 1000, ...query },
    retry: 'auto',
    ...(signal ? { signal } : {}),
  });
  return itemsOf(answer.body, wrapperKeys, schema, Number(query['startrow'] ?? 1));
}

/** A route that names one record: no paging to ask for (the conflict check of every update goes through here). */
export async function one<K extends SchemaName>(
  client: ReplayClient,
  path: string,
  wrapperKeys: readonly string[],
  schema: K,
  signal: AbortSignal | undefined,
): Promise<z.output<(typeof schemas)[K]>[]> {
  const answer = await client.request('GET', path, { retry: 'auto', ...(signal ? { signal } : {}) });
  return itemsOf(answer.body, wrapperKeys, schema);
}

export function presentState(record: Record<string, unknown>, id?: number | string): ServerState {
  return id === undefined ? { present: true, record } : { present: true, record, id };
}
