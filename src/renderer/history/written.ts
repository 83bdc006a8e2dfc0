/**
 * What was written of each person since the previous snapshot, as their fact keeps it: each record's latest entry,
 * or its removal, noted by history/touched.ts once its transaction completed. A snapshot patches the person's head
 * with it instead of reading their records from the cache (history/snapshot.ts). The entries are facts.ts's own, so
 * the fact's shape stays there; an assignment's and a transcript's entry start with the record's key. Pure.
 */
import type {
  CredentialAssignmentRecord,
  GroupMemberRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../shared/records.ts';
import { assignmentEntry, membershipEntry, sortFact, trainingEntry, userEntry } from './facts.ts';
import type { PersonFact } from './rows.ts';

/** One person's writes: each entry as last written (null: removed). */
export interface PersonWrites {
  /** their own fields (null: their record deleted); absent: not written */
  u?: PersonFact['u'] | null;
  /** group id → still a member */
  g: Map<number, boolean>;
  c: Map<string, PersonFact['c'][number] | null>;
  t: Map<number, PersonFact['t'][number] | null>;
}

/** A record of a table a fact is made of, as written (or, deleted, as it was). */
export type PersonWrite =
  | { table: 'users'; value: UserRecord }
  | { table: 'groupMembers'; value: GroupMemberRecord }
  | { table: 'credentialAssignments'; value: CredentialAssignmentRecord }
  | { table: 'trainingAssignments'; value: TrainingAssignmentRecord };

const emptyWrites = (): PersonWrites => ({ g: new Map(), c: new Map(), t: new Map() });

/** Notes a record put, or deleted (`deleted`), in its person's writes. */
export function noteWrite(writes: Map<number, PersonWrites>, write: PersonWrite, deleted: boolean): void {
  const userid = write.value.userid;
  const own = writes.get(userid) ?? emptyWrites();
  writes.set(userid, own);
  if (write.table === 'users') own.u = deleted ? null : userEntry(write.value);
  else if (write.table === 'groupMembers') own.g.set(membershipEntry(write.value), !deleted);
  else if (write.table === 'credentialAssignments') {
    const entry = assignmentEntry(write.value);
    own.c.set(entry[0], deleted ? null : entry);
  } else {
    const entry = trainingEntry(write.value);
    own.t.set(entry[0], deleted ? null : entry);
  }
}

function patched<K, E>(list: readonly E[], keyOf: (e: E) => K, writes: ReadonlyMap<K, E | null>): E[] {
  if (writes.size === 0) return [...list];
  const entries = new Map(list.map((e) => [keyOf(e), e]));
  for (const [key, entry] of writes) {
    if (entry) entries.set(key, entry);
    else entries.delete(key);
  }
  return [...entries.values()];
}

/** The fact of a person after their writes; null when their record is deleted. */
export function patchFact(fact: PersonFact, writes: PersonWrites): PersonFact | null {
  const u = writes.u === undefined ? fact.u : writes.u;
  if (!u) return null;
  const groups = new Set(fact.g);
  for (const [groupid, member] of writes.g) {
    if (member) groups.add(groupid);
    else groups.delete(groupid);
  }
  return sortFact({
    u,
    g: [...groups],
    c: patched(fact.c, (e) => e[0], writes.c),
    t: patched(fact.t, (e) => e[0], writes.t),
  });
}
