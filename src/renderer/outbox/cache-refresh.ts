/**
 * After an op is done, the cache takes what the server confirmed, so the views
 * show the truth without waiting for the next sync: the record read back for
 * updates and new training assignments, the new id for creates, removal for
 * deletes.
 */
import type { OpKind, ReplayOutcome } from '../../shared/ipc.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import type { OutboxOp } from '../../shared/outbox.ts';
import {
  emailsOfUser,
  normalizeTrainingAssignment,
  normalizeUser,
  userSearchKeys,
  userSortName,
  type UserRecord,
} from '../../shared/records.ts';
import { schemas } from '../../shared/api/wire.ts';
import { toIsoDate } from '../../shared/dates.ts';
import type { FieldbookDb } from '../db/index.ts';
import { yieldToEventLoop } from '../../shared/yield.ts';
import { credentialAssignmentKey, groupUserKey, moduleAccessKey } from '../../shared/keys.ts';

const text = (v: unknown, fallback = ''): string => (v === undefined || v === null ? fallback : String(v));

export function refreshedUser(
  current: UserRecord | undefined,
  changes: Partial<UserRecord>,
  fallback: Partial<UserRecord> & { userid: number; siteid: number },
): UserRecord {
  const merged = {
    username: '',
    firstname: '',
    lastname: '',
    employeeid: '',
    status: '',
    usertype: 'User',
    ...fallback,
    ...current,
    ...changes,
  } as UserRecord;
  return { ...merged, searchKeys: userSearchKeys(merged), sortName: userSortName(merged) };
}

export type DoneOutcome = ReplayOutcome & { status: 'done' };

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
      // a run of updates that came back with the server's record is one bulk write (the last copy of a person wins,
      // as in order); anything else is applied on its own, after the run before it
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

/**
 * The person an update came back with (the server's record with the change on it), marked as refreshed from the site;
 * null when the answer carries none.
 */
function updatedUserOf(op: OutboxOp, outcome: DoneOutcome): UserRecord | null {
  if (op.op.kind !== 'user.update' || outcome.readBack?.user) return null;
  const after = schemas.user.safeParse(outcome.after);
  if (!after.success || after.data.userid !== op.op.userid) return null;
  return { ...normalizeUser(after.data), refreshedAt: new Date().toISOString() };
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

export function createCacheRefresher(
  db: FieldbookDb,
  onError: (err: unknown) => void = () => undefined,
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

/** What the cache holds after an op of one kind is done (its own record; the person read back is put after it). */
type OwnRecordWriter<K extends OpKind> = (
  db: FieldbookDb,
  spec: OpSpecOf<K>,
  outcome: DoneOutcome,
  op: OutboxOp,
) => Promise<unknown>;

/** The id the server gave a create, as a number (NaN when it gave none). */
const createdNumberOf = (outcome: DoneOutcome): number =>
  typeof outcome.createdId === 'number' ? outcome.createdId : Number(outcome.createdId);

async function refreshUpdatedUser(
  db: FieldbookDb,
  spec: OpSpecOf<'user.update'>,
  outcome: DoneOutcome,
  op: OutboxOp,
): Promise<void> {
  // the server's record with the change on it (a field changed there meanwhile comes with it): one write,
  // marked as refreshed from the site like any record read back after a change
  const updated = updatedUserOf(op, outcome);
  if (updated) {
    await db.users.put(updated);
    return;
  }
  const current = await db.users.get(spec.userid);
  if (current) await db.users.put(refreshedUser(current, spec.changes, current));
}

async function putCreatedUser(db: FieldbookDb, spec: OpSpecOf<'user.create'>, outcome: DoneOutcome) {
  const id = createdNumberOf(outcome);
  if (Number.isInteger(id))
    await db.users.put(
      refreshedUser(undefined, { ...spec.fields, userid: id }, { userid: id, siteid: spec.siteid }),
    );
}

async function putAddedEmail(db: FieldbookDb, spec: OpSpecOf<'email.add'>, outcome: DoneOutcome) {
  const id = createdNumberOf(outcome);
  if (Number.isInteger(id))
    await db.emails.put({
      emailid: id,
      userid: spec.userid,
      email: spec.email,
      status: 'Active',
      isprimary: null,
    });
}

async function putCredentialAssignment(
  db: FieldbookDb,
  spec: OpSpecOf<'credentialAssignment.create' | 'credentialAssignment.update'>,
  outcome: DoneOutcome,
): Promise<void> {
  const key = credentialAssignmentKey(spec.credentialid, spec.userid);
  const current = await db.credentialAssignments.get(key);
  const fields = spec.kind === 'credentialAssignment.create' ? spec.fields : spec.changes;
  // the server's copy (read back after the write) over what was sent
  const after = { ...fields, ...(outcome.after ?? {}) };
  const startdate = text(after['startdate'], current?.startdate);
  const expirationdate = text(after['expirationdate'], current?.expirationdate);
  await db.credentialAssignments.put({
    id: key,
    credentialid: spec.credentialid,
    userid: spec.userid,
    attachmentcount: current?.attachmentcount ?? 0,
    startdate,
    startIso: toIsoDate(startdate),
    expirationdate,
    expirationIso: toIsoDate(expirationdate),
    credentialnumber: text(after['credentialnumber'], current?.credentialnumber),
    status: text(after['status'], current?.status ?? 'active'),
    notes: text(after['notes'], current?.notes),
  });
}

async function putUpdatedTraining(db: FieldbookDb, spec: OpSpecOf<'trainingAssignment.update'>) {
  const current = await db.trainingAssignments.get(spec.transcriptid);
  if (!current) return;
  const c = spec.changes;
  await db.trainingAssignments.put({
    ...current,
    ...(c.duedate !== undefined ? { due_date: c.duedate, dueIso: toIsoDate(c.duedate) } : {}),
    ...(c.startdate !== undefined ? { start_date: c.startdate, startIso: toIsoDate(c.startdate) } : {}),
    ...(c.coursestatus !== undefined ? { course_status: c.coursestatus } : {}),
  });
}

async function putCreatedTraining(db: FieldbookDb, _spec: unknown, outcome: DoneOutcome): Promise<void> {
  // main read the new assignment back; without it (or when it does not parse) the next sync brings it
  const parsed = schemas.trainingAssignment.safeParse(outcome.after);
  if (!parsed.success) return;
  const siteid =
    (await db.courses.get(parsed.data.courseid))?.siteid ?? (await db.users.get(parsed.data.userid))?.siteid;
  if (siteid !== undefined)
    await db.trainingAssignments.put(normalizeTrainingAssignment(parsed.data, siteid));
}

/** Per kind, what the cache holds once its op is done (a kind without its entry is a type error). */
const OWN_RECORD_AFTER_DONE = {
  'user.update': refreshUpdatedUser,
  'user.create': putCreatedUser,
  'email.add': putAddedEmail,
  'email.remove': (db, spec) => db.emails.delete(spec.emailid),
  'groupAccess.grant': (db, { groupid, userid, siteid }) =>
    db.groupAccess.put({ id: groupUserKey(groupid, userid), groupid, userid, siteid }),
  'groupAccess.revoke': (db, spec) => db.groupAccess.delete(groupUserKey(spec.groupid, spec.userid)),
  'moduleAccess.grant': (db, { siteid, accessID, userid }) =>
    db.moduleAccess.put({ id: moduleAccessKey(siteid, accessID, userid), accessID, siteid, userid }),
  'moduleAccess.revoke': (db, spec) =>
    db.moduleAccess.delete(moduleAccessKey(spec.siteid, spec.accessID, spec.userid)),
  'credentialAssignment.create': putCredentialAssignment,
  'credentialAssignment.update': putCredentialAssignment,
  'credentialAssignment.delete': (db, spec) =>
    db.credentialAssignments.delete(credentialAssignmentKey(spec.credentialid, spec.userid)),
  'trainingAssignment.create': putCreatedTraining,
  'trainingAssignment.update': putUpdatedTraining,
  'trainingAssignment.delete': (db, spec) => db.trainingAssignments.delete(spec.transcriptid),
} satisfies { [K in OpKind]: OwnRecordWriter<K> };

async function applyOwnRecord(db: FieldbookDb, op: OutboxOp, outcome: DoneOutcome): Promise<void> {
  // the table pairs each kind with its own writer, which the compiler cannot follow through the union of kinds
  const write = OWN_RECORD_AFTER_DONE[op.op.kind] as OwnRecordWriter<OpKind>;
  await write(db, op.op, outcome, op);
}
