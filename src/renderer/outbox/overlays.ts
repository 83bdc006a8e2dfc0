/**
 * Registers the outbox's pending ops as overlays on the views' records (see
 * app/overlays.ts), and a hook for views that want the raw pending ops.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { OutboxOp } from '../../shared/outbox.ts';
import type { FieldbookDb } from '../db/index.ts';
import { registerOverlay, type PendingMark } from '../app/overlays.ts';
import { useActiveDb } from '../app/session.ts';
import {
  applyPendingToCredentialAssignments,
  applyPendingToGroupAccess,
  applyPendingToModuleAccess,
  applyPendingToTrainingAssignments,
  applyPendingToUsers,
  type WithPending,
} from './pending.ts';

export async function unsentOpsOf(db: FieldbookDb): Promise<OutboxOp[]> {
  return db.outbox.where('status').noneOf(['done']).toArray();
}

function toMark<T>(rows: WithPending<T>[]): (T & PendingMark)[] {
  return rows.map(({ pending, ...row }): T & PendingMark => (pending ? { ...(row as T), pendingOps: pending.opIds } : (row as T & PendingMark)));
}

/**
 * New records (a credential assigned offline) are added only next to rows of
 * the same user: a view's query is scoped, and an unrelated pending record
 * must not leak into it.
 */
function sameUsers<T extends { userid: number }>(rows: readonly T[], out: WithPending<T>[]): WithPending<T>[] {
  const users = new Set(rows.map((r) => r.userid));
  return out.filter((r) => r.pending?.change !== 'create' || users.has(r.userid));
}

let registered = false;

export function registerOutboxOverlays(): void {
  if (registered) return;
  registered = true;
  registerOverlay('users', async (db, rows) => toMark(applyPendingToUsers(rows, await unsentOpsOf(db))));
  registerOverlay('credentialAssignments', async (db, rows) => toMark(sameUsers(rows, applyPendingToCredentialAssignments(rows, await unsentOpsOf(db)))));
  registerOverlay('trainingAssignments', async (db, rows) => toMark(sameUsers(rows, applyPendingToTrainingAssignments(rows, await unsentOpsOf(db)))));
  registerOverlay('groupAccess', async (db, rows) => toMark(sameUsers(rows, applyPendingToGroupAccess(rows, await unsentOpsOf(db)))));
  registerOverlay('moduleAccess', async (db, rows) => toMark(sameUsers(rows, applyPendingToModuleAccess(rows, await unsentOpsOf(db)))));
}

/** Unsent ops on the given targets (e.g. ["user:42"]), live; all unsent ops when no targets are given. @public: the views of issue #11a use it. */
export function usePendingOps(targetKeys?: readonly string[]): OutboxOp[] {
  const db = useActiveDb();
  const key = targetKeys?.join('|') ?? '*';
  return (
    useLiveQuery(async () => {
      if (!db) return [];
      const ops = targetKeys ? await db.outbox.where('targetKey').anyOf([...targetKeys]).toArray() : await db.outbox.toArray();
      return ops.filter((op) => op.status !== 'done').sort((a, b) => a.seq - b.seq);
    }, [db, key]) ?? []
  );
}
