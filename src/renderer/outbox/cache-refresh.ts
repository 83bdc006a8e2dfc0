/**
 * After an op is done, the cache takes what the server confirmed, so the views
 * show the truth without waiting for the next sync: the record read back for
 * updates and new training assignments, the new id for creates, removal for
 * deletes: each kind's `afterDone` (src/renderer/op-kinds/), applied here in
 * order, in bursts of one transaction.
 */
import type { OutboxOp } from '../../shared/outbox.ts';
import { emailsOfUser, normalizeUser, type UserRecord } from '../../shared/records.ts';
import { schemas } from '../../shared/api/wire.ts';
import type { FieldbookDb } from '../db/index.ts';
import { yieldToEventLoop } from '../../shared/yield.ts';
import { rendererKindOf } from '../op-kinds.ts';
import type { DoneOutcome } from '../op-kinds/definition.ts';
import { updatedUserOf } from './refreshed.ts';

export interface Applied {
  op: OutboxOp;
  outcome: DoneOutcome;
}

/** Several outcomes, in order, in one transaction (a transaction costs far more than a row). */
export async function applyOutcomesToCache(db: FieldbookDb, applied: readonly Applied[]): Promise<void> {
  if (applied.length === 0) return;
  await db.transaction(
    'rw',
    [
      db.users,
      db.courses,
      db.emails,
      db.groupAccess,
      db.moduleAccess,
      db.credentialAssignments,
      db.trainingAssignments,
    ],
    async () => {
      // a run of updates that came back with the server's record is one bulk write (the last copy of a person
      // wins, as in order); anything else is applied on its own, after the run before it
      const run = new Map<number, UserRecord>();
      const flushRun = async () => {
        if (run.size > 0) await db.users.bulkPut([...run.values()]);
        run.clear();
      };
      for (const { op, outcome } of applied) {
        const user = updatedUserOf(op, outcome);
        if (user) {
          run.delete(user.userid);
          run.set(user.userid, user);
          continue;
        }
        await flushRun();
        await applyOne(db, op, outcome);
      }
      await flushRun();
    },
  );
}

export function applyOutcomeToCache(db: FieldbookDb, op: OutboxOp, outcome: DoneOutcome): Promise<void> {
  return applyOutcomesToCache(db, [{ op, outcome }]);
}

/**
 * The cache side of a replay: outcomes arrive in bursts (the engine commits
 * them in groups), and each burst is applied in one transaction, after the
 * previous one, so a record's refreshes keep their order. A refresh that fails
 * costs nothing but freshness: the next sync brings the record.
 */
export interface CacheRefresher {
  add(op: OutboxOp, outcome: DoneOutcome): void;
  /** resolves once every outcome added so far is in the cache (or failed to be) */
  settled(): Promise<void>;
}

/** `onRefreshed`: after each burst is in the cache (or failed to be), for the views that follow it by hand. */
export function createCacheRefresher(
  db: FieldbookDb,
  onError: (err: unknown) => void = () => undefined,
  onRefreshed: () => void = () => undefined,
): CacheRefresher {
  let waiting: Applied[] = [];
  let running: Promise<void> | null = null;
  const apply = async (burst: Applied[]) => {
    try {
      await applyOutcomesToCache(db, burst);
    } catch (err) {
      if (burst.length === 1) return onError(err);
      // the burst went back as a whole: one outcome at a time, so a bad one costs only its own refresh
      for (const one of burst) await applyOutcomesToCache(db, [one]).catch(onError);
    }
  };
  const drain = async () => {
    // a macrotask later, the whole burst of outcomes resolved together is here
    await yieldToEventLoop();
    while (waiting.length > 0) {
      const burst = waiting;
      waiting = [];
      await apply(burst);
      onRefreshed();
    }
    running = null;
  };
  return {
    add(op, outcome) {
      waiting.push({ op, outcome });
      running ??= drain();
    },
    async settled() {
      while (running) await running;
    },
  };
}

/**
 * The person as the platform holds them after the op (its side effects: a
 * status given at creation, a user type given with a grant, a name changed on
 * the server), marked as refreshed; their e-mails with them when the answer
 * carries them. False when the answer had no readable person.
 */
async function putReadBackUser(db: FieldbookDb, wire: Record<string, unknown> | undefined): Promise<boolean> {
  const parsed = schemas.user.safeParse(wire);
  if (!parsed.success) return false;
  const user = normalizeUser(parsed.data);
  await db.users.put({ ...user, refreshedAt: new Date().toISOString() });
  const emails = emailsOfUser(parsed.data);
  if (emails.length > 0) {
    const keep = new Set(emails.map((e) => e.emailid));
    const old = await db.emails.where('userid').equals(user.userid).primaryKeys();
    await db.emails.bulkDelete(old.filter((k) => !keep.has(k)));
    await db.emails.bulkPut(emails);
  }
  return true;
}

async function applyOne(db: FieldbookDb, op: OutboxOp, outcome: DoneOutcome): Promise<void> {
  await applyOwnRecord(db, op, outcome);
  await putReadBackUser(db, outcome.readBack?.user);
}

/** What the cache holds of the op's own record once it is done: its kind's (src/renderer/op-kinds/). */
async function applyOwnRecord(db: FieldbookDb, op: OutboxOp, outcome: DoneOutcome): Promise<void> {
  await rendererKindOf(op.op).afterDone(db, op.op, outcome, op);
}
