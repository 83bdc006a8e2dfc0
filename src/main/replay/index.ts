/**
 * executeReplay: one queued operation -> the API. The renderer owns the queue
 * (order, retries, durability); this turns one op into requests and says what
 * happened: done, conflict, needs-review, retry (transient) or paused (token).
 *
 * Exactly-once effect: writes are sent without the client's automatic retry;
 * when a previous attempt may have reached the server (`verifyFirst`), the
 * server's state is read first and an op already in effect is not sent again.
 */
import type { AppError, ReplayOutcome, ReplayRequest, OpSpec } from '../../shared/ipc.ts';
import { isStatusBody, type StatusBody } from '../../shared/api/index.ts';
import { OP_KIND_TABLE } from '../../shared/op-kinds.ts';
import {
  alreadyInEffect,
  changedSinceBase,
  classifyFailure,
  conflictingFields,
  sameCreatedUser,
} from './rules.ts';
import { changesOf, createdIdField } from './routes.ts';
import type { ReplayClient, ServerState } from './read.ts';
import { readState, writeRequestOf } from './kinds.ts';
import { toAppError } from '../ipc/errors.ts';
import { withReadBack } from './read-back.ts';
import type { RecordSource } from './list-reads.ts';
import { credentialAssignmentKey } from '../../shared/keys.ts';

export type { ReplayClient } from './read.ts';

interface Attempt {
  /** the write request has been handed to the network in this attempt */
  wrote: boolean;
  /** records read through list routes (batches); told of every write */
  records: RecordSource | undefined;
}

/**
 * `records`: copies read through list routes for a batch (list-reads.ts); without them every record is read on its own.
 */
export async function executeReplay(
  client: ReplayClient,
  req: ReplayRequest,
  signal?: AbortSignal,
  records?: RecordSource,
): Promise<ReplayOutcome> {
  const outcome = await executeOnce(client, req, records, signal);
  return outcome.status === 'done' ? withReadBack(client, req.op, outcome, signal) : outcome;
}

async function executeOnce(
  client: ReplayClient,
  req: ReplayRequest,
  records: RecordSource | undefined,
  signal?: AbortSignal,
): Promise<ReplayOutcome> {
  const attempt: Attempt = { wrote: false, records };
  try {
    switch (OP_KIND_TABLE[req.op.kind].effect) {
      case 'update':
        return await replayUpdate(client, req, attempt, signal);
      case 'create':
        return await replayCreate(client, req, attempt, signal);
      case 'delete':
        return await replayDelete(client, req, attempt, signal);
    }
  } catch (err) {
    const error = appErrorOf(err);
    const cls = classifyFailure(error);
    // An aborted write may have left: only a refusal the server answered proves it did not apply.
    if (cls === 'retry')
      return {
        status: 'retry',
        error,
        maybeSent: req.verifyFirst || (attempt.wrote && (maybeSentOf(err) || error.code === 'cancelled')),
      };
    return cls === 'paused' ? { status: 'paused', error } : { status: 'needs-review', error };
  }
}

async function replayUpdate(
  client: ReplayClient,
  req: ReplayRequest,
  attempt: Attempt,
  signal?: AbortSignal,
): Promise<ReplayOutcome> {
  const mine = changesOf(req.op) ?? {};
  // a copy from the batch's list read when there is a fresh one (never for an op to verify); else its own GET
  const state =
    (req.verifyFirst ? null : attempt.records?.take(req.op)) ?? (await readState(client, req.op, signal));
  if (!state.present)
    return {
      status: 'needs-review',
      error: { code: 'not-found', message: 'The record no longer exists on the server.' },
    };
  const theirs = state.record;
  // Also covers an earlier attempt whose answer was lost: the change is already there.
  if (alreadyInEffect(mine, theirs)) return { status: 'done', alreadyApplied: true, after: theirs };
  if (req.resolution !== 'mine') {
    const fields = conflictingFields(req.base, mine, theirs);
    if (fields.length > 0) return { status: 'conflict', theirs, fields };
  }
  const response = await write(client, req.op, attempt, signal);
  return withResponse({ status: 'done', after: { ...theirs, ...mine } }, response.statusBody);
}

async function replayCreate(
  client: ReplayClient,
  req: ReplayRequest,
  attempt: Attempt,
  signal?: AbortSignal,
): Promise<ReplayOutcome> {
  if (req.verifyFirst) {
    const state = await readState(client, req.op, signal);
    const verdict = createVerdict(req.op, state);
    if (verdict) return verdict;
  }
  try {
    const response = await write(client, req.op, attempt, signal);
    if (req.op.kind === 'trainingAssignment.create') {
      const readBack = await readBackTraining(client, req.op, signal);
      const createdId = readBack.createdId ?? idFromBody(req.op, response.body);
      return withResponse(
        createdId === undefined ? readBack : { ...readBack, createdId },
        response.statusBody,
      );
    }
    const createdId = await createdIdOf(client, req.op, response.body, signal);
    return withResponse(
      createdId === undefined ? { status: 'done' } : { status: 'done', createdId },
      response.statusBody,
    );
  } catch (err) {
    if (appErrorOf(err).statuscode !== 1002) throw err;
    // Not unique: done if what is there is what we sent, otherwise someone else holds it.
    const state = await readState(client, req.op, signal);
    const verdict = createVerdict(req.op, state);
    if (verdict) return verdict;
    throw err;
  }
}

/**
 * Given the server's state, is a create already in effect (done), held by someone else (needs review), or still to send
 * (null)?
 */
export function createVerdict(op: OpSpec, state: ServerState): ReplayOutcome | null {
  if (!state.present) return null;
  if (op.kind === 'user.create' && !sameCreatedUser(op.fields, state.record)) {
    return {
      status: 'needs-review',
      error: {
        code: 'duplicate',
        statuscode: 1002,
        message: `The username ${op.fields.username} is already taken by another person.`,
      },
    };
  }
  const done: ReplayOutcome = { status: 'done', alreadyApplied: true, after: state.record };
  return state.id === undefined ? done : { ...done, createdId: state.id };
}

async function replayDelete(
  client: ReplayClient,
  req: ReplayRequest,
  attempt: Attempt,
  signal?: AbortSignal,
): Promise<ReplayOutcome> {
  // a removal with a base (a bulk removal's before-image, an undo of a create) is checked like an update
  const checked = req.resolution !== 'mine' && req.base !== undefined && Object.keys(req.base).length > 0;
  if (req.verifyFirst || checked) {
    const state = await readState(client, req.op, signal);
    if (!state.present) return { status: 'done', alreadyApplied: true };
    const fields = checked && req.base ? changedSinceBase(req.base, state.record) : [];
    if (fields.length > 0) return { status: 'conflict', theirs: state.record, fields };
  }
  try {
    const response = await write(client, req.op, attempt, signal);
    return withResponse({ status: 'done' }, response.statusBody);
  } catch (err) {
    if (classifyFailure(appErrorOf(err)) !== 'needs-review') throw err;
    // Refused: if it is gone anyway (removed by someone, or by our earlier attempt), the intent holds.
    const state = await readState(client, req.op, signal);
    if (!state.present) return { status: 'done', alreadyApplied: true };
    throw err;
  }
}

async function write(client: ReplayClient, op: OpSpec, attempt: Attempt, signal?: AbortSignal) {
  const request = writeRequestOf(op);
  attempt.wrote = true;
  const settled = attempt.records?.writing(op);
  try {
    return await client.request(request.method, request.path, {
      ...(request.body ? { body: request.body } : {}),
      retry: 'none',
      ...(signal ? { signal } : {}),
    });
  } finally {
    settled?.();
  }
}

async function createdIdOf(
  client: ReplayClient,
  op: OpSpec,
  body: unknown,
  signal?: AbortSignal,
): Promise<number | string | undefined> {
  if (op.kind === 'credentialAssignment.create') return credentialAssignmentKey(op.credentialid, op.userid);
  if (!createdIdField(op)) return undefined;
  const fromBody = idFromBody(op, body);
  if (fromBody !== undefined) return fromBody;
  // The platform may not echo the new id: read it back.
  const state = await readState(client, op, signal);
  return state.present ? state.id : undefined;
}

/** The new record's id when the answer to the create carries it. */
function idFromBody(op: OpSpec, body: unknown): number | undefined {
  const field = createdIdField(op);
  if (!field || body === null || typeof body !== 'object') return undefined;
  const value = (body as Record<string, unknown>)[field];
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value))
    ? Number(value)
    : undefined;
}

/**
 * A new training assignment as the server holds it (course name, dates, its
 * transcript id), so the cache can show it at once. The assignment is made
 * whatever this read says: when it fails, the op is still done and the next
 * sync brings the record.
 */
async function readBackTraining(
  client: ReplayClient,
  op: OpSpec,
  signal?: AbortSignal,
): Promise<ReplayOutcome & { status: 'done' }> {
  try {
    const state = await readState(client, op, signal);
    if (state.present)
      return state.id === undefined
        ? { status: 'done', after: state.record }
        : { status: 'done', after: state.record, createdId: state.id };
  } catch {
    // the write succeeded: only the cache's copy waits for the next sync
  }
  return { status: 'done' };
}

function withResponse(outcome: ReplayOutcome & { status: 'done' }, statusBody: unknown): ReplayOutcome {
  return isStatusBody(statusBody) ? { ...outcome, response: statusBody as StatusBody } : outcome;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** A request that failed without saying why failed on the way: a network failure, retried. */
const UNEXPLAINED: AppError = { code: 'network', message: 'The server could not be reached.' };
const appErrorOf = (err: unknown): AppError => toAppError(err, UNEXPLAINED);

/** Could the failed request have been applied? The client says so on its errors; anything unknown may have been. */
function maybeSentOf(err: unknown): boolean {
  if (isObject(err) && typeof err['maybeSent'] === 'boolean') return err['maybeSent'];
  return true;
}
