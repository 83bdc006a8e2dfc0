/** The cache's records a compliance report needs, by index (people of a site, of a group, or chosen), offline. */
import type { UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import type { ReportInput } from './model.ts';

export type ReportScope = { kind: 'site'; siteid: number } | { kind: 'group'; groupid: number } | { kind: 'people'; userids: readonly number[] };

export interface LoadedReport {
  input: ReportInput;
  /** what the report covers, in words ("Riverside", "Drivers (Riverside)", "12 people chosen") */
  scopeLabel: string;
  /** the last completed sync of any collection (ISO), null when never synced */
  dataAsOf: string | null;
}

async function peopleOf(db: FieldbookDb, scope: ReportScope): Promise<UserRecord[]> {
  if (scope.kind === 'site') return db.users.where('siteid').equals(scope.siteid).toArray();
  const ids = scope.kind === 'group' ? (await db.groupMembers.where('groupid').equals(scope.groupid).toArray()).map((m) => m.userid) : [...scope.userids];
  return (await db.users.bulkGet(ids)).filter((u): u is UserRecord => u !== undefined);
}

export async function loadReport(db: FieldbookDb, scope: ReportScope, today: string): Promise<LoadedReport> {
  const people = await peopleOf(db, scope);
  const ids = people.map((p) => p.userid);
  const [memberships, groups, credentials, assignments, training, sites, synced] = await Promise.all([
    db.groupMembers.where('userid').anyOf(ids).toArray(),
    db.groups.toArray(),
    db.credentials.toArray(),
    db.credentialAssignments.where('userid').anyOf(ids).toArray(),
    db.trainingAssignments.where('userid').anyOf(ids).toArray(),
    db.sites.toArray(),
    db.syncCollections.toArray(),
  ]);
  const siteName = (siteid: number) => sites.find((s) => s.siteid === siteid)?.sitename ?? `Site ${siteid}`;
  let scopeLabel: string;
  if (scope.kind === 'site') scopeLabel = siteName(scope.siteid);
  else if (scope.kind === 'group') {
    const group = groups.find((g) => g.groupid === scope.groupid);
    scopeLabel = group ? `${group.groupname} (${siteName(group.siteid)})` : `Group ${scope.groupid}`;
  } else scopeLabel = `${people.length} ${people.length === 1 ? 'person' : 'people'} chosen`;
  const dataAsOf = synced.reduce<string | null>((latest, row) => (row.lastSyncedAt && (!latest || row.lastSyncedAt > latest) ? row.lastSyncedAt : latest), null);
  return { input: { people, memberships, groups, credentials, assignments, training, today }, scopeLabel, dataAsOf };
}
