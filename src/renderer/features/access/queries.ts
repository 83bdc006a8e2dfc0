/** Access view: groups and features with the supervisors who hold them. */
import type { GroupRecord, ModuleRecord, UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';

export interface GroupWithSupervisors {
  group: GroupRecord;
  supervisors: UserRecord[];
}

export interface FeatureWithHolders {
  feature: ModuleRecord;
  holders: UserRecord[];
}

function byName(a: UserRecord, b: UserRecord): number {
  return a.sortName.localeCompare(b.sortName);
}

async function usersById(db: FieldbookDb, ids: Iterable<number>): Promise<Map<number, UserRecord>> {
  const unique = [...new Set(ids)];
  const users = await db.users.bulkGet(unique);
  const out = new Map<number, UserRecord>();
  for (const u of users) if (u) out.set(u.userid, u);
  return out;
}

export async function groupsWithSupervisors(db: FieldbookDb): Promise<GroupWithSupervisors[]> {
  const [groups, access] = await Promise.all([db.groups.toArray(), db.groupAccess.toArray()]);
  const users = await usersById(db, access.map((a) => a.userid));
  const byGroup = new Map<number, UserRecord[]>();
  for (const a of access) {
    const u = users.get(a.userid);
    if (!u) continue;
    const list = byGroup.get(a.groupid) ?? [];
    list.push(u);
    byGroup.set(a.groupid, list);
  }
  return groups
    .map((group) => ({ group, supervisors: (byGroup.get(group.groupid) ?? []).sort(byName) }))
    .sort((a, b) => a.group.groupname.localeCompare(b.group.groupname));
}

export async function featuresWithHolders(db: FieldbookDb): Promise<FeatureWithHolders[]> {
  const [features, access] = await Promise.all([db.modules.toArray(), db.moduleAccess.toArray()]);
  const users = await usersById(db, access.map((a) => a.userid));
  const byFeature = new Map<string, UserRecord[]>();
  for (const a of access) {
    const u = users.get(a.userid);
    if (!u) continue;
    const key = `${a.siteid}-${a.accessID}`;
    const list = byFeature.get(key) ?? [];
    list.push(u);
    byFeature.set(key, list);
  }
  return features
    .map((feature) => ({ feature, holders: (byFeature.get(feature.id) ?? []).sort(byName) }))
    .sort((a, b) => a.feature.moduleName.localeCompare(b.feature.moduleName) || a.feature.functionName.localeCompare(b.feature.functionName));
}
