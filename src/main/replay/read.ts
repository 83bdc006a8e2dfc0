/**
 * Reads the server's current state of an operation's target, for the conflict
 * check (updates) and the verification before a resend (creates, grants,
 * deletes). Only routes whose shape the spec gives are relied on where possible;
 * every answer is validated before it is trusted.
 */
import { z } from 'zod';
import { isStatusBody, schemas, type SchemaName } from '../../shared/api/index.ts';
import type { AppError, OpSpec } from '../../shared/ipc.ts';
import { TRAINING_WIRE_FIELD } from './routes.ts';
import { parseRecords } from '../api/field-length.ts';
import { recordIssue } from '../api/record-issue.ts';
import { credentialAssignmentKey } from '../../shared/keys.ts';

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

const ABSENT: ServerState = { present: false };

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

async function list<K extends SchemaName>(
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
async function one<K extends SchemaName>(
  client: ReplayClient,
  path: string,
  wrapperKeys: readonly string[],
  schema: K,
  signal: AbortSignal | undefined,
): Promise<z.output<(typeof schemas)[K]>[]> {
  const answer = await client.request('GET', path, { retry: 'auto', ...(signal ? { signal } : {}) });
  return itemsOf(answer.body, wrapperKeys, schema);
}

function present(record: Record<string, unknown>, id?: number | string): ServerState {
  return id === undefined ? { present: true, record } : { present: true, record, id };
}

export async function readState(
  client: ReplayClient,
  op: OpSpec,
  signal?: AbortSignal,
): Promise<ServerState> {
  switch (op.kind) {
    case 'user.update': {
      const users = await one(client, `/users/${op.userid}`, ['users'], 'user', signal);
      const user = users.find((u) => u.userid === op.userid);
      return user ? present({ ...user }, user.userid) : ABSENT;
    }
    case 'user.create': {
      const users = await list(client, '/users', ['users'], 'user', signal, { username: op.fields.username });
      const wanted = op.fields.username.trim().toLowerCase();
      const user = users.find((u) => u.username.trim().toLowerCase() === wanted && u.siteid === op.siteid);
      return user ? present({ ...user }, user.userid) : ABSENT;
    }
    case 'email.add':
    case 'email.remove': {
      const emails = await list(client, `/users/${op.userid}/emails`, ['emails'], 'email', signal);
      const email =
        op.kind === 'email.add'
          ? emails.find((e) => e.email.trim().toLowerCase() === op.email.trim().toLowerCase())
          : emails.find((e) => e.emailid === op.emailid);
      return email ? present({ ...email }, email.emailid) : ABSENT;
    }
    case 'groupAccess.grant':
    case 'groupAccess.revoke': {
      const groups = await list(client, `/users/${op.userid}/access/groups`, ['groups'], 'group', signal);
      const group = groups.find((g) => g.groupid === op.groupid);
      return group ? present({ ...group }) : ABSENT;
    }
    case 'moduleAccess.grant':
    case 'moduleAccess.revoke': {
      const modules = await list(client, `/users/${op.userid}/access/modules`, ['modules'], 'module', signal);
      const module = modules.find((m) => m.accessID === op.accessID);
      return module ? present({ ...module }) : ABSENT;
    }
    case 'credentialAssignment.create':
    case 'credentialAssignment.update':
    case 'credentialAssignment.delete': {
      const held = await list(
        client,
        `/users/${op.userid}/credentials`,
        ['Credentials'],
        'credentialAssignment',
        signal,
      );
      const assignment = held.find((a) => a.credentialid === op.credentialid);
      return assignment
        ? present({ ...assignment }, credentialAssignmentKey(op.credentialid, op.userid))
        : ABSENT;
    }
    case 'trainingAssignment.create': {
      const assigned = await list(
        client,
        `/users/${op.userid}/trainingassignments`,
        ['trainingassignments'],
        'trainingAssignment',
        signal,
      );
      const assignment = assigned.find((t) => t.courseid === op.courseid);
      return assignment ? present(trainingFields(assignment), assignment.transcriptid) : ABSENT;
    }
    case 'trainingAssignment.update':
    case 'trainingAssignment.delete': {
      const found = await list(
        client,
        `/trainingassignments/${op.transcriptid}`,
        ['trainingassignments'],
        'trainingAssignment',
        signal,
      );
      const assignment = found.find((t) => t.transcriptid === op.transcriptid);
      return assignment ? present(trainingFields(assignment), assignment.transcriptid) : ABSENT;
    }
  }
}

/** A training assignment with its change fields also under the names an op uses (duedate, startdate, coursestatus). */
function trainingFields(t: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...t };
  for (const [opField, wireField] of Object.entries(TRAINING_WIRE_FIELD)) out[opField] = t[wireField];
  return out;
}
