/** Access view: groups and features with the supervisors who hold them. */
import type { GroupRecord, ModuleRecord, UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { compareGroups, compareText, groupContext, siteName } from '../../app/catalog.ts';
import { loadCatalogNames } from '../../app/catalog-names.ts';

export interface GroupWithSupervisors {
  group: GroupRecord;
  /** "North · Crews": the group's site and profile category (names repeat across sites) */
  context: string;
  supervisors: UserRecord[];
}

export interface FeatureWithHolders {
  feature: ModuleRecord;
  /** the feature's site name */
  site: string;
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
  const [groups, access, names] = await Promise.all([db.groups.toArray(), db.groupAccess.toArray(), loadCatalogNames(db)]);
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
    .sort((a, b) => compareGroups(a, b, names))
    .map((group) => ({ group, context: groupContext(group, names), supervisors: (byGroup.get(group.groupid) ?? []).sort(byName) }));
}

export async function featuresWithHolders(db: FieldbookDb): Promise<FeatureWithHolders[]> {
  const [features, access, names] = await Promise.all([db.modules.toArray(), db.moduleAccess.toArray(), loadCatalogNames(db)]);
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
    .map((feature) => ({ feature, site: siteName(feature.siteid, names), holders: (byFeature.get(feature.id) ?? []).sort(byName) }))
    .sort((a, b) => compareText(a.site, b.site) || compareText(a.feature.moduleName, b.feature.moduleName) || compareText(a.feature.functionName, b.feature.functionName));
}
