/** Reading what a bulk preview needs from the cache, in its effective state (pending ops applied). */
import type { TokenAccess } from '../../../shared/ipc.ts';
import type { UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import {
  applyPendingToCredentialAssignments,
  applyPendingToGroupAccess,
  applyPendingToModuleAccess,
  applyPendingToTrainingAssignments,
  applyPendingToUsers,
  unsentOps,
  type WithPending,
} from '../../outbox/pending.ts';
import { unsentOpsOf } from '../../outbox/overlays.ts';
import type { BulkContext } from './plan.ts';
import { courseOfUserKey } from '../../../shared/keys.ts';

/** Held unless a pending op removes it. */
function kept<T>(rows: WithPending<T>[]): WithPending<T>[] {
  return rows.filter((r) => r.pending?.change !== 'delete');
}

/** The record with what its pending ops do, as the plan reads it (`pendingChange`). */
function marked<T>(row: WithPending<T>): T {
  const { pending, ...rest } = row;
  return (pending ? { ...rest, pendingChange: pending.change } : rest) as T;
}

export async function loadBulkContext(
  db: FieldbookDb,
  userIds: readonly number[],
  access: TokenAccess,
): Promise<{ users: UserRecord[]; ctx: BulkContext }> {
  const ids = [...userIds];
  const ops = unsentOps(await unsentOpsOf(db));
  const [users, groupAccess, moduleAccess, credentials, training] = await Promise.all([
    db.users.bulkGet(ids),
    db.groupAccess.where('userid').anyOf(ids).toArray(),
    db.moduleAccess.where('userid').anyOf(ids).toArray(),
    db.credentialAssignments.where('userid').anyOf(ids).toArray(),
    db.trainingAssignments.where('userid').anyOf(ids).toArray(),
  ]);
  const wanted = new Set(ids);
  const present = users.filter((u): u is UserRecord => u !== undefined);
  const effectiveUsers = applyPendingToUsers(present, ops).filter((u) => wanted.has(u.userid));
  return {
    users: effectiveUsers,
    ctx: {
      access,
      groupAccess: new Set(kept(applyPendingToGroupAccess(groupAccess, ops)).map((g) => g.id)),
      moduleAccess: new Set(kept(applyPendingToModuleAccess(moduleAccess, ops)).map((m) => m.id)),
      credentialsHeld: new Map(
        kept(applyPendingToCredentialAssignments(credentials, ops)).map((c) => [c.id, marked(c)]),
      ),
      trainingHeld: new Map(
        kept(applyPendingToTrainingAssignments(training, ops)).map((t) => [
          courseOfUserKey(t.userid, t.courseid),
          marked(t),
        ]),
      ),
    },
  };
}
