/**
 * What each record of an undo preview holds now: the server's answer through
 * `replay:read` when online, the cache's copy when offline (the undo's ops
 * are then checked again by the replay before they are sent). Records are
 * read a few at a time; one that cannot be read is left out, with its error.
 */
import type { AppError, FieldbookApi, OpSpec, RecordState } from '../../../shared/ipc.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { credentialAssignmentKey, groupUserKey, moduleAccessKey } from '../../../shared/keys.ts';

const ABSENT: RecordState = { present: false };
const PARALLEL_READS = 4;

function present(record: object, id?: number | string): RecordState {
  return id === undefined
    ? { present: true, record: { ...record } }
    : { present: true, record: { ...record }, id };
}

/** The cache's copy of an op's target, in the op's field names (as the replay reads the server's). */
export async function cachedState(db: FieldbookDb, op: OpSpec): Promise<RecordState> {
  switch (op.kind) {
    case 'user.update': {
      const user = await db.users.get(op.userid);
      return user ? present(user, user.userid) : ABSENT;
    }
    case 'user.create': {
      const wanted = op.fields.username.trim().toLowerCase();
      const user = (await db.users.where('siteid').equals(op.siteid).toArray()).find(
        (u) => u.username.trim().toLowerCase() === wanted,
      );
      return user ? present(user, user.userid) : ABSENT;
    }
    case 'email.add': {
      const wanted = op.email.trim().toLowerCase();
      const email = (await db.emails.where('userid').equals(op.userid).toArray()).find(
        (e) => e.email.trim().toLowerCase() === wanted,
      );
      return email ? present(email, email.emailid) : ABSENT;
    }
    case 'email.remove': {
      const email = await db.emails.get(op.emailid);
      return email && email.userid === op.userid ? present(email, email.emailid) : ABSENT;
    }
    case 'groupAccess.grant':
    case 'groupAccess.revoke': {
      const grant = await db.groupAccess.get(groupUserKey(op.groupid, op.userid));
      return grant ? present(grant) : ABSENT;
    }
    case 'moduleAccess.grant':
    case 'moduleAccess.revoke': {
      const grant = await db.moduleAccess.get(moduleAccessKey(op.siteid, op.accessID, op.userid));
      return grant ? present(grant) : ABSENT;
    }
    case 'credentialAssignment.create':
    case 'credentialAssignment.update':
    case 'credentialAssignment.delete': {
      const key = credentialAssignmentKey(op.credentialid, op.userid);
      const held = await db.credentialAssignments.get(key);
      return held ? present(held, key) : ABSENT;
    }
    case 'trainingAssignment.create': {
      const t = (await db.trainingAssignments.where('userid').equals(op.userid).toArray()).find(
        (a) => a.courseid === op.courseid,
      );
      return t ? present(trainingFields(t), t.transcriptid) : ABSENT;
    }
    case 'trainingAssignment.update':
    case 'trainingAssignment.delete': {
      const t = await db.trainingAssignments.get(op.transcriptid);
      return t ? present(trainingFields(t), t.transcriptid) : ABSENT;
    }
  }
}

/** A training assignment with its fields also under the names an op uses. */
function trainingFields(t: {
  due_date: string;
  start_date: string;
  course_status: string;
}): Record<string, unknown> {
  return { ...t, duedate: t.due_date, startdate: t.start_date, coursestatus: t.course_status };
}

export interface ReadResult {
  now: Map<string, RecordState>;
  /** records that could not be read, by record key */
  errors: Map<string, AppError>;
}

export type ReadSource =
  { online: true; api: Pick<FieldbookApi, 'replay:read'> } | { online: false; db: FieldbookDb };

export async function readRecords(
  reads: ReadonlyMap<string, OpSpec>,
  source: ReadSource,
  onProgress: (done: number) => void = () => undefined,
): Promise<ReadResult> {
  const result: ReadResult = { now: new Map(), errors: new Map() };
  const queue = [...reads.entries()];
  let done = 0;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, op] = next;
      if (source.online) {
        const answer = await source.api['replay:read']({ op });
        if (answer.ok) result.now.set(key, answer.value);
        else result.errors.set(key, answer.error);
      } else {
        result.now.set(key, await cachedState(source.db, op));
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: source.online ? PARALLEL_READS : 1 }, worker));
  return result;
}
