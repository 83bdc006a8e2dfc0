/**
 * Registers the outbox's pending ops as the views' overlays (see
 * app/overlays.ts): for each kind of record, the cached records the unsent ops
 * touch (read by key, never a whole table) and their effective state computed
 * by `applyPending` (pending.ts) from each kind's overlay.
 */
import { OP_KIND_TABLE, definitionOf } from '../../shared/op-kinds.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import type { UserRecord } from '../../shared/records.ts';
import { allUsersByName } from '../db/users-memo.ts';
import type { FieldbookDb } from '../db/index.ts';
import {
  registerPendingSource,
  type OverlayKind,
  type OverlayRecords,
  type PendingMark,
  type PendingScope,
  type Touched,
} from '../app/overlays.ts';
import { memoUnsentInOrder } from './unsent-in-order.ts';
import { outboxOps } from '../../shared/replay-queue/packs.ts';
import { applyPending, type WithPending } from './pending.ts';

export async function unsentOpsOf(db: FieldbookDb): Promise<OutboxOp[]> {
  return outboxOps(db, (op) => op.status !== 'done');
}

/** The pending info as the views' mark (ids and what the ops do). */
function toMark<T>(rows: WithPending<T>[]): (T & PendingMark)[] {
  return rows.map(({ pending, ...row }): T & PendingMark =>
    pending
      ? { ...(row as T), pendingOps: pending.opIds, pendingChange: pending.change }
      : (row as T & PendingMark),
  );
}

function present<T>(rows: (T | undefined)[]): T[] {
  return rows.filter((r): r is T => r !== undefined);
}

/**
 * Primary keys of the cached records the ops touch, per kind (a create of a new id touches none: the overlay
 * adds it).
 */
function touchedKeys(ops: readonly OutboxOp[]): { [K in OverlayKind]: (string | number)[] } {
  const keys: { [K in OverlayKind]: Set<string | number> } = {
    users: new Set(),
    emails: new Set(),
    groupAccess: new Set(),
    moduleAccess: new Set(),
    credentialAssignments: new Set(),
    trainingAssignments: new Set(),
  };
  for (const { op } of ops) {
    const definition = definitionOf(op);
    const key = definition.recordKey(op);
    if (key !== null) keys[definition.shows].add(key);
  }
  const out = {} as { [K in OverlayKind]: (string | number)[] };
  for (const [kind, set] of Object.entries(keys)) out[kind as OverlayKind] = [...set];
  return out;
}

/** Users by id over the in-memory copy of the users (db/users-memo.ts): no read for a pending user edit. */
const usersById = new WeakMap<readonly UserRecord[], Map<number, UserRecord>>();

async function cachedUsers(db: FieldbookDb, keys: (string | number)[]): Promise<UserRecord[]> {
  const all = await allUsersByName(db);
  let byId = usersById.get(all);
  if (!byId) usersById.set(all, (byId = new Map(all.map((u) => [u.userid, u]))));
  return present(keys.map((k) => byId.get(Number(k))));
}

async function readTouched<K extends OverlayKind>(
  db: FieldbookDb,
  kind: K,
  keys: (string | number)[],
): Promise<OverlayRecords[K][]> {
  if (keys.length === 0) return [];
  if (kind === 'users') return (await cachedUsers(db, keys)) as OverlayRecords[K][];
  const table = db[kind] as unknown as {
    bulkGet(keys: (string | number)[]): Promise<(OverlayRecords[K] | undefined)[]>;
  };
  return present(await table.bulkGet(keys));
}

/** A new training assignment shows its course's name and site (the op only names the course id). */
async function withCourses(
  db: FieldbookDb,
  rows: (OverlayRecords['trainingAssignments'] & PendingMark)[],
): Promise<(OverlayRecords['trainingAssignments'] & PendingMark)[]> {
  const bare = rows.filter((r) => r.pendingChange === 'create' && r.course_name === '');
  if (bare.length === 0) return rows;
  const courses = await db.courses.bulkGet([...new Set(bare.map((r) => r.courseid))]);
  const byId = new Map(present(courses).map((c) => [c.courseid, c]));
  return rows.map((r) => {
    const course = r.pendingChange === 'create' && r.course_name === '' ? byId.get(r.courseid) : undefined;
    return course ? { ...r, course_name: course.coursename, siteid: course.siteid } : r;
  });
}

async function touchedRecords<K extends OverlayKind>(
  db: FieldbookDb,
  kind: K,
  ops: readonly OutboxOp[],
): Promise<Touched<OverlayRecords[K]>> {
  const relevant = ops.filter((op) => opCollection(op) === kind);
  if (relevant.length === 0) return { before: [], after: [] };
  const before = await readTouched(db, kind, touchedKeys(relevant)[kind]);
  const after = toMark(applyPending(kind, before, relevant)).filter(
    (r) => (r as PendingMark).pendingOps !== undefined,
  );
  return { before, after };
}

/** The collection an op changes (the one whose effective state shows it). */
function opCollection(op: OutboxOp): OverlayKind {
  return OP_KIND_TABLE[op.op.kind].shows;
}

/**
 * Could the op change a record of the person in `scope`? Every op that names a
 * person (bound to the stand-in id of one created offline by `unsentOps`) makes
 * records of that person only; an op that names none (a create of a person, a
 * change to a training assignment by its id) is kept.
 */
function concerns(op: OutboxOp, scope: PendingScope): boolean {
  return !('userid' in op.op) || op.op.userid === scope.userid;
}

let registered = false;

export function registerOutboxOverlays(): void {
  if (registered) return;
  registered = true;
  // the ops from memory (ops-memo.ts): views follow the outbox through its version
  registerPendingSource(async (db, scope) => {
    const inOrder = await memoUnsentInOrder(db);
    const ops = scope ? inOrder.filter((op) => concerns(op, scope)) : inOrder;
    const cache = new Map<OverlayKind, Promise<Touched<OverlayRecords[OverlayKind]>>>();
    const read = async <K extends OverlayKind>(kind: K): Promise<Touched<OverlayRecords[K]>> => {
      const touched = await touchedRecords(db, kind, ops);
      if (kind !== 'trainingAssignments') return touched;
      const training = touched as Touched<OverlayRecords['trainingAssignments']>;
      return { before: training.before, after: await withCourses(db, training.after) } as unknown as Touched<
        OverlayRecords[K]
      >;
    };
    return <K extends OverlayKind>(kind: K) => {
      let touched = cache.get(kind);
      if (!touched) cache.set(kind, (touched = read(kind)));
      return touched as Promise<Touched<OverlayRecords[K]>>;
    };
  });
}
