/**
 * Writing to the outbox: queue a batch, undo (discard) before sending, retry,
 * edit, resolve a conflict, clear what is done. Every write is one strict
 * transaction; every op that leaves the outbox leaves an audit entry.
 */
import type { OpSpec } from '../ipc.ts';
import type { AuditEntry, BaseValues, OpBinding, OutboxOp } from '../outbox.ts';
import { targetKeyOf } from '../op-kinds.ts';
import type { OutboxDb } from './db.ts';
import { auditEntryOf } from './audit.ts';
import { mapSliced } from '../sliced.ts';
import { leavePacks, packsOf, readPacks, unpackHolding, withPacked } from './packs.ts';
import { allFields, mergeConflict, type FieldChoice, type FieldChoices } from './merge.ts';

export interface OpDraft {
  /** give an id when other drafts of the batch refer to this one */
  id?: string;
  op: OpSpec;
  base?: BaseValues;
  summary: string;
  targetKey?: string;
  dependsOn?: string[];
  bindings?: OpBinding[];
}

/**
 * What a person's discard, retry, edit or resolve wrote to the outbox: the records as stored and the ids deleted.
 * The engine takes exactly these (`OutboxEngine.changed`) where it read the whole queue back (100,000 records after a
 * large import) for one click.
 */
export interface OutboxChange {
  written: OutboxOp[];
  removed: string[];
}

export function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** The state of an op that has never been tried: how every queued op starts. */
export const PENDING_STATE = {
  status: 'pending',
  attempts: 0,
  maybeSent: false,
  nextAttemptAt: null,
  lastError: null,
  response: null,
  theirs: null,
} as const satisfies Partial<OutboxOp>;

/**
 * Ops handed to IndexedDB per request: the structured clone of each request's records
 * runs on the window's thread, about 50 µs an op on an idle laptop but 150–300 µs on a
 * busy one (250 a request made tasks of 40–76 ms there), so 100 keep every task under 30 ms.
 */
const WRITE_SLICE = 100;
/**
 * Slices handed to IndexedDB before the first of them is stored: the window clones the next while
 * the browser stores the last. One at a time, the window waited for each answer before cloning the
 * next: 20,000 ops took 8.6 s that way and 5.4 s with 4 in flight (Chromium, a loaded 2-core machine).
 */
const WRITES_IN_FLIGHT = 4;

/** Queue a batch: ids, queue positions after everything already queued, all pending. */
export async function enqueueOps(
  db: OutboxDb,
  drafts: readonly OpDraft[],
  opts: {
    batchId?: string;
    now?: Date;
    /** the batch this one undoes */ undoes?: string;
    /** the batch's name ("Import of staff.xlsx") */ label?: string;
    /** stored some hundred ops to a record (packs.ts): a large batch, whose cost is the browser's per record */
    packed?: boolean;
  } = {},
): Promise<OutboxOp[]> {
  const batchId = opts.batchId ?? newId();
  const createdAt = (opts.now ?? new Date()).toISOString();
  // the records are made a slice at a time, yielding between slices (no long task of the window
  // on 100,000 ops); the transaction then only numbers them and writes them
  const ops =
    (await mapSliced(drafts, (draft): OutboxOp => ({
      id: draft.id ?? newId(),
      batchId,
      seq: 0,
      targetKey: draft.targetKey ?? targetKeyOf(draft.op),
      dependsOn: draft.dependsOn ?? [],
      op: draft.op,
      base: draft.base ?? {},
      createdAt,
      ...PENDING_STATE,
      summary: draft.summary,
      ...(draft.bindings && draft.bindings.length > 0 ? { bindings: draft.bindings } : {}),
      ...(opts.undoes ? { undoes: opts.undoes } : {}),
      ...(opts.label ? { batchLabel: opts.label } : {}),
      updatedAt: createdAt,
    }))) ?? [];
  return db.transaction('rw', db.outbox, db.outboxPacks, async () => {
    let seq = await lastSeq(db);
    for (const op of ops) op.seq = ++seq;
    // in slices, one transaction: a batch of 100,000 ops is never one long task of the window
    if (opts.packed) await addInSlices(packsOf(ops), 1, (packs) => db.outboxPacks.bulkAdd(packs));
    else await addInSlices(ops, WRITE_SLICE, (slice) => db.outbox.bulkAdd(slice));
    return ops;
  });
}

/** The last queue position taken, packed or not. Call inside a transaction over the outbox and its packs. */
async function lastSeq(db: OutboxDb): Promise<number> {
  const last = await db.outbox.orderBy('seq').last();
  const lastPack = await db.outboxPacks.orderBy('first').last();
  return Math.max(last?.seq ?? 0, lastPack?.last ?? 0);
}

/**
 * Adds the records a slice at a time, up to WRITES_IN_FLIGHT slices at once. Call inside the transaction:
 * each next slice is handed over as an earlier one is stored, while the transaction is still active.
 */
async function addInSlices<T>(
  records: readonly T[],
  slice: number,
  add: (slice: T[]) => Promise<unknown>,
): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  for (let at = 0; at < records.length; at += slice) {
    if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
    const write: Promise<void> = add(records.slice(at, at + slice)).then(() => {
      inFlight.delete(write);
    });
    // a failure is thrown by the race or the last wait, and aborts the transaction
    write.catch(() => undefined);
    inFlight.add(write);
  }
  await Promise.all(inFlight);
}

/** Ops that wait on these (directly or through others): discarding a create discards what needs its id. */
export function dependantsOf(ids: readonly string[], all: readonly OutboxOp[]): string[] {
  const out = new Set(ids);
  let grew = true;
  while (grew) {
    grew = false;
    for (const op of all) {
      if (out.has(op.id)) continue;
      if (op.dependsOn.some((dep) => out.has(dep)) || op.bindings?.some((b) => out.has(b.fromOp))) {
        out.add(op.id);
        grew = true;
      }
    }
  }
  return [...out];
}

/** A person's discard or edit: the ops the engine is sending now (an update's "being sent" is never stored). */
export interface PersonsWrite {
  sending?: ReadonlySet<string>;
  now?: Date;
}

const NONE_SENDING: ReadonlySet<string> = new Set();

/**
 * Undo before sending / discard: removes the ops and those depending on them,
 * each with an audit entry; returns the ids actually discarded. Ops being sent
 * right now are left alone (they may already be on the server), and so is every
 * op waiting on one of them: the create reaches the platform, so the edits made
 * for the new record go with it rather than vanish while it lands.
 */
export async function discardOps(
  db: OutboxDb,
  ids: readonly string[],
  actor: string,
  { sending = NONE_SENDING, now = new Date() }: PersonsWrite = {},
): Promise<OutboxChange> {
  return db.transaction('rw', db.outbox, db.outboxPacks, db.audit, async () => {
    const [stored, packs] = [await db.outbox.toArray(), await readPacks(db)];
    const gone = discardable(ids, withPacked(stored, packs), sending);
    // a pack whose every op goes leaves whole; a packed op going alone leaves its pack first (the others stay, as
    // records)
    const records = await leavePacks(db, packs, new Set(stored.map((op) => op.id)), gone);
    const at = now.toISOString();
    await db.audit.bulkAdd(gone.map((op): AuditEntry => auditEntryOf(op, 'discarded', actor, at)));
    await db.outbox.bulkDelete(records);
    return { written: [], removed: gone.map((op) => op.id) };
  });
}

/**
 * The ops a discard of `ids` removes: those asked for and their dependants, but none being sent, done, or waiting on
 * one being sent.
 */
function discardable(
  ids: readonly string[],
  all: readonly OutboxOp[],
  sending: ReadonlySet<string>,
): OutboxOp[] {
  const onTheWay = new Set(
    dependantsOf(
      all.filter((op) => op.status === 'sending' || sending.has(op.id)).map((op) => op.id),
      all,
    ),
  );
  const wanted = new Set(
    dependantsOf(
      ids.filter((id) => !onTheWay.has(id)),
      all,
    ),
  );
  return all.filter((op) => wanted.has(op.id) && !onTheWay.has(op.id) && op.status !== 'done');
}

/** Send a parked op (needs review, failed) again, from scratch: it still verifies first if it may have been sent. */
export async function retryOps(
  db: OutboxDb,
  ids: readonly string[],
  now = new Date(),
): Promise<OutboxChange> {
  return db.transaction('rw', db.outbox, async () => {
    const stored = await db.outbox.bulkGet([...ids]);
    const written = stored
      .filter((op): op is OutboxOp => op !== undefined && op.status !== 'done' && op.status !== 'sending')
      .map((op): OutboxOp => ({
        ...op,
        status: 'pending',
        nextAttemptAt: null,
        lastError: null,
        updatedAt: now.toISOString(),
      }));
    await db.outbox.bulkPut(written);
    return { written, removed: [] };
  });
}

/** Edit an op that has not gone yet (its payload); it goes back to pending. Nothing is written when it has gone. */
export async function editOp(
  db: OutboxDb,
  id: string,
  op: OpSpec,
  summary: string,
  { sending = NONE_SENDING, now = new Date() }: PersonsWrite = {},
): Promise<OutboxChange> {
  return db.transaction('rw', db.outbox, db.outboxPacks, async () => {
    const current = (await db.outbox.get(id)) ?? (await packedOp(db, id));
    const gone = !current || current.status === 'sending' || sending.has(id) || current.status === 'done';
    if (gone || current.op.kind !== op.kind) return { written: [], removed: [] };
    // a packed op leaves its pack first (the pack's other ops stay, as records), then is written edited
    await unpackHolding(db, [current]);
    const edited: OutboxOp = {
      ...current,
      op,
      summary,
      status: 'pending',
      lastError: null,
      nextAttemptAt: null,
      updatedAt: now.toISOString(),
    };
    await db.outbox.put(edited);
    return { written: [edited], removed: [] };
  });
}

/** A packed op by its id (a pack is found by queue position, which the id does not give). */
async function packedOp(db: OutboxDb, id: string): Promise<OutboxOp | undefined> {
  for (const pack of await readPacks(db)) {
    const op = pack.ops.find((o) => o.id === id);
    if (op) return op;
  }
  return undefined;
}

export type ConflictChoice = FieldChoice | FieldChoices;

/**
 * Resolve conflicts: a choice per field in conflict (or one for all of them). What
 * is left of mine goes back to the queue as the merged record, checked against the
 * server's values of the moment (see merge.ts); when nothing is left, the server's
 * values stay and the op leaves the outbox. Fields given to the server are recorded
 * in the audit log (`fieldName` says them in words).
 */
export async function resolveConflicts(
  db: OutboxDb,
  ids: readonly string[],
  choice: ConflictChoice,
  actor: string,
  opts: { now?: Date; fieldName?: (field: string) => string } = {},
): Promise<OutboxChange> {
  const at = (opts.now ?? new Date()).toISOString();
  const named = (fields: readonly string[]) => fields.map(opts.fieldName ?? ((f) => f)).join(', ');
  return db.transaction('rw', db.outbox, db.audit, async () => {
    const ops = (await db.outbox.bulkGet([...ids])).filter(
      (op): op is OutboxOp => op !== undefined && op.status === 'conflict',
    );
    const change: OutboxChange = { written: [], removed: [] };
    for (const op of ops) {
      const merged = mergeConflict(op, typeof choice === 'string' ? allFields(op, choice) : choice);
      const entry = auditEntryOf(op, 'resolved', actor, at);
      if (!merged.send) {
        await db.audit.add({
          ...entry,
          after: op.theirs,
          message: `${op.summary}: kept the server's values`,
        });
        await db.outbox.delete(op.id);
        change.removed.push(op.id);
        continue;
      }
      if (merged.keptTheirs.length > 0)
        await db.audit.add({
          ...entry,
          after: op.theirs,
          message: `${op.summary}: kept the server's ${named(merged.keptTheirs)}; the rest is sent`,
        });
      const { conflictFields: _fields, resolution: _resolution, ...rest } = op;
      const pending: OutboxOp = {
        ...rest,
        op: merged.op,
        base: merged.base,
        status: 'pending',
        theirs: null,
        lastError: null,
        nextAttemptAt: null,
        updatedAt: at,
      };
      await db.outbox.put(pending);
      change.written.push(pending);
    }
    return change;
  });
}

/** Clear ops that are done: their audit entries stay. */
export async function clearDone(db: OutboxDb): Promise<number> {
  return db.transaction('rw', db.outbox, () => db.outbox.where('status').equals('done').delete());
}
