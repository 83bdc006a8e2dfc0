/**
 * The cache's records a compliance report needs, by index (people of a site, of a
 * group, or chosen), offline, in their effective state like every view: changes still
 * waiting in the Outbox count (a pending removal no longer does), and the report says
 * how many it includes, since they are not on the platform yet.
 */
import type { UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { applyOverlays, pendingSnapshot, type PendingMark } from '../../app/overlays.ts';
import type { ReportInput } from './model.ts';
import { countOutboxNotDone } from '../outbox/TabCounts.tsx';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';

export type ReportScope =
  | { kind: 'site'; siteid: number }
  | { kind: 'group'; groupid: number }
  | { kind: 'people'; userids: readonly number[] };

export interface LoadedReport {
  input: ReportInput;
  /** what the report covers, in words ("Riverside", "Drivers (Riverside)", "12 people chosen") */
  scopeLabel: string;
  /** the last completed sync of any collection (ISO), null when never synced */
  dataAsOf: string | null;
  /**
   * the Outbox's changes (ops not yet done) this report shows: those changing its people,
   * their credentials or their training, removals included (the report no longer shows what they remove)
   */
  pendingIncluded: number;
  /** every change in the Outbox not yet done: the number on the Outbox tab */
  pendingInOutbox: number;
}

const kept = <T extends PendingMark>(rows: T[]): T[] => rows.filter((r) => r.pendingChange !== 'delete');

async function peopleOf(db: FieldbookDb, scope: ReportScope): Promise<UserRecord[]> {
  if (scope.kind === 'site') return db.users.where('siteid').equals(scope.siteid).toArray();
  const ids =
    scope.kind === 'group'
      ? (await db.groupMembers.where('groupid').equals(scope.groupid).toArray()).map((m) => m.userid)
      : [...scope.userids];
  return (await db.users.bulkGet(ids)).filter((u): u is UserRecord => u !== undefined);
}

export async function loadReport(db: FieldbookDb, scope: ReportScope): Promise<LoadedReport> {
  const pending = await pendingSnapshot(db);
  const cachedPeople = await peopleOf(db, scope);
  const inScope = new Set(cachedPeople.map((p) => p.userid));
  // people created offline on the site join a site's report; a group's or a selection's are the cached ones
  const people = await applyOverlays(
    'users',
    pending,
    cachedPeople,
    (u) => inScope.has(u.userid) || (scope.kind === 'site' && u.userid < 0 && u.siteid === scope.siteid),
  );
  const ids = people.map((p) => p.userid);
  const wanted = new Set(ids);
  const ofPeople = (row: { userid: number }) => wanted.has(row.userid);
  const [
    memberships,
    groups,
    categories,
    credentials,
    courses,
    requirements,
    cachedAssignments,
    cachedTraining,
    sites,
    synced,
  ] = await Promise.all([
    db.groupMembers.where('userid').anyOf(ids).toArray(),
    db.groups.toArray(),
    db.profileCategories.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
    db.requirements.toArray(),
    db.credentialAssignments.where('userid').anyOf(ids).toArray(),
    db.trainingAssignments.where('userid').anyOf(ids).toArray(),
    db.sites.toArray(),
    db.syncCollections.toArray(),
  ]);
  const allAssignments = await applyOverlays('credentialAssignments', pending, cachedAssignments, ofPeople);
  const allTraining = await applyOverlays('trainingAssignments', pending, cachedTraining, ofPeople);
  const assignments = kept(allAssignments);
  const training = kept(allTraining);
  // changes counted as the Outbox counts them (one per op), not as the records they touch
  const pendingIncluded = new Set(
    [...people, ...allAssignments, ...allTraining].flatMap((r) => r.pendingOps ?? []),
  ).size;
  const pendingInOutbox = await countOutboxNotDone(db);
  const siteName = (siteid: number) => sites.find((s) => s.siteid === siteid)?.sitename ?? NOT_HERE.site;
  let scopeLabel: string;
  if (scope.kind === 'site') scopeLabel = siteName(scope.siteid);
  else if (scope.kind === 'group') {
    const group = groups.find((g) => g.groupid === scope.groupid);
    scopeLabel = group ? `${group.groupname} (${siteName(group.siteid)})` : NOT_HERE.group;
  } else scopeLabel = `${people.length} ${people.length === 1 ? 'person' : 'people'} chosen`;
  const dataAsOf = synced.reduce<string | null>(
    (latest, row) => (row.lastSyncedAt && (!latest || row.lastSyncedAt > latest) ? row.lastSyncedAt : latest),
    null,
  );
  return {
    input: {
      people,
      memberships,
      groups,
      categories,
      credentials,
      courses,
      assignments,
      training,
      requirements,
    },
    scopeLabel,
    dataAsOf,
    pendingIncluded,
    pendingInOutbox,
  };
}
