/** Access view: groups and features with the supervisors who hold them. */
import type { GroupRecord, ModuleRecord, UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { applyOverlays, usersWithPending, type PendingMark } from '../../app/overlays.ts';
import { compareGroups, compareText, groupContext, siteName } from '../../app/catalog.ts';
import { loadCatalogNames } from '../../app/catalog-names.ts';

/** A person holding access; the mark is the grant's (a pending grant or revoke), not the person's. */
export type Holder = UserRecord & PendingMark;

export interface GroupWithSupervisors {
  group: GroupRecord;
  /** "North · Crews": the group's site and profile category (names repeat across sites) */
  context: string;
  supervisors: Holder[];
}

export interface FeatureWithHolders {
  feature: ModuleRecord;
  /** the feature's site name */
  site: string;
  holders: Holder[];
}

function holder(u: UserRecord, grant: PendingMark): Holder {
  const { pendingOps: _ops, pendingChange: _change, ...user } = u as Holder;
  return grant.pendingOps ? { ...user, pendingOps: grant.pendingOps, ...(grant.pendingChange ? { pendingChange: grant.pendingChange } : {}) } : user;
}

function byName(a: UserRecord, b: UserRecord): number {
  return a.sortName.localeCompare(b.sortName);
}

export async function groupsWithSupervisors(db: FieldbookDb): Promise<GroupWithSupervisors[]> {
  const [groups, access, names] = await Promise.all([db.groups.toArray(), db.groupAccess.toArray().then((rows) => applyOverlays('groupAccess', db, rows, () => true)), loadCatalogNames(db)]);
  const users = await usersWithPending(db, access.map((a) => a.userid));
  const byGroup = new Map<number, Holder[]>();
  for (const a of access) {
    const u = users.get(a.userid);
    if (!u) continue;
    const list = byGroup.get(a.groupid) ?? [];
    list.push(holder(u, a));
    byGroup.set(a.groupid, list);
  }
  return groups
    .sort((a, b) => compareGroups(a, b, names))
    .map((group) => ({ group, context: groupContext(group, names), supervisors: (byGroup.get(group.groupid) ?? []).sort(byName) }));
}

export async function featuresWithHolders(db: FieldbookDb): Promise<FeatureWithHolders[]> {
  const [features, access, names] = await Promise.all([db.modules.toArray(), db.moduleAccess.toArray().then((rows) => applyOverlays('moduleAccess', db, rows, () => true)), loadCatalogNames(db)]);
  const users = await usersWithPending(db, access.map((a) => a.userid));
  const byFeature = new Map<string, Holder[]>();
  for (const a of access) {
    const u = users.get(a.userid);
    if (!u) continue;
    const key = `${a.siteid}-${a.accessID}`;
    const list = byFeature.get(key) ?? [];
    list.push(holder(u, a));
    byFeature.set(key, list);
  }
  return features
    .map((feature) => ({ feature, site: siteName(feature.siteid, names), holders: (byFeature.get(feature.id) ?? []).sort(byName) }))
    .sort((a, b) => compareText(a.site, b.site) || compareText(a.feature.moduleName, b.feature.moduleName) || compareText(a.feature.functionName, b.feature.functionName));
}
