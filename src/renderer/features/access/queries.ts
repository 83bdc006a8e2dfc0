/** Access view: groups and features with the supervisors who hold them. */
import type { GroupRecord, ModuleRecord, UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import {
  bucketDelta,
  mergeTouched,
  pendingSnapshot,
  usersWithPending,
  type PendingMark,
  type Touched,
} from '../../app/overlays.ts';
import { compareGroups, compareText, groupContext, siteName } from '../../app/catalog.ts';
import { loadCatalogNames } from '../../app/catalog-names.ts';
import { moduleKey } from '../../../shared/keys.ts';

/** A person holding access; the mark is the grant's (a pending grant or revoke), not the person's. */
export type Holder = UserRecord & PendingMark;

/** How many people hold access once the pending grants and revokes are sent. */
export interface HolderCount {
  count: number;
  /** the pending grants minus the pending revokes in it */
  delta: number;
  /** some pending grant or revoke touches it (even when they cancel out) */
  pending: boolean;
}

export interface GroupWithSupervisors {
  group: GroupRecord;
  supervisorCount: HolderCount;
  /** "North · Crews": the group's site and profile category (names repeat across sites) */
  context: string;
  supervisors: Holder[];
}

export interface FeatureWithHolders {
  feature: ModuleRecord;
  /** the feature's site name */
  site: string;
  holders: Holder[];
  holderCount: HolderCount;
}

function holder(u: UserRecord, grant: PendingMark): Holder {
  const { pendingOps: _ops, pendingChange: _change, ...user } = u as Holder;
  return grant.pendingOps
    ? {
        ...user,
        pendingOps: grant.pendingOps,
        ...(grant.pendingChange ? { pendingChange: grant.pendingChange } : {}),
      }
    : user;
}

/**
 * Pure: holders per group (or feature) in the effective state, from the cached grants and
 * the shared count helper (bucketDelta): a pending grant counts, a pending revoke no longer does.
 */
export function holderCounts<T>(
  cached: readonly T[],
  touched: Touched<T>,
  keyOf: (grant: T) => string,
): Map<string, HolderCount> {
  const out = new Map<string, HolderCount>();
  const at = (key: string) => out.get(key) ?? { count: 0, delta: 0, pending: false };
  for (const grant of cached)
    out.set(keyOf(grant), { ...at(keyOf(grant)), count: at(keyOf(grant)).count + 1 });
  for (const grant of touched.after) out.set(keyOf(grant), { ...at(keyOf(grant)), pending: true });
  for (const [key, delta] of bucketDelta(touched, keyOf)) {
    const c = at(key);
    out.set(key, { count: c.count + delta, delta, pending: c.pending });
  }
  return out;
}

const NO_HOLDER: HolderCount = { count: 0, delta: 0, pending: false };

function byName(a: UserRecord, b: UserRecord): number {
  return a.sortName.localeCompare(b.sortName);
}

export async function groupsWithSupervisors(db: FieldbookDb): Promise<GroupWithSupervisors[]> {
  const [groups, cached, names, touched] = await Promise.all([
    db.groups.toArray(),
    db.groupAccess.toArray(),
    loadCatalogNames(db),
    pendingSnapshot(db).then((p) => p('groupAccess')),
  ]);
  const access = mergeTouched('groupAccess', cached, touched, () => true);
  const counts = holderCounts(cached, touched, (a) => String(a.groupid));
  const users = await usersWithPending(
    db,
    access.map((a) => a.userid),
  );
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
    .map((group) => ({
      group,
      context: groupContext(group, names),
      supervisors: (byGroup.get(group.groupid) ?? []).sort(byName),
      supervisorCount: counts.get(String(group.groupid)) ?? NO_HOLDER,
    }));
}

export async function featuresWithHolders(db: FieldbookDb): Promise<FeatureWithHolders[]> {
  const [features, cached, names, touched] = await Promise.all([
    db.modules.toArray(),
    db.moduleAccess.toArray(),
    loadCatalogNames(db),
    pendingSnapshot(db).then((p) => p('moduleAccess')),
  ]);
  const access = mergeTouched('moduleAccess', cached, touched, () => true);
  const counts = holderCounts(cached, touched, (a) => moduleKey(a.siteid, a.accessID));
  const users = await usersWithPending(
    db,
    access.map((a) => a.userid),
  );
  const byFeature = new Map<string, Holder[]>();
  for (const a of access) {
    const u = users.get(a.userid);
    if (!u) continue;
    const key = moduleKey(a.siteid, a.accessID);
    const list = byFeature.get(key) ?? [];
    list.push(holder(u, a));
    byFeature.set(key, list);
  }
  return features
    .map((feature) => ({
      feature,
      site: siteName(feature.siteid, names),
      holders: (byFeature.get(feature.id) ?? []).sort(byName),
      holderCount: counts.get(feature.id) ?? NO_HOLDER,
    }))
    .sort(
      (a, b) =>
        compareText(a.site, b.site) ||
        compareText(a.feature.moduleName, b.feature.moduleName) ||
        compareText(a.feature.functionName, b.feature.functionName),
    );
}

/** A group's members in their effective state, by name. */
export async function groupMembersOf(
  db: FieldbookDb,
  groupid: number,
): Promise<(UserRecord & PendingMark)[]> {
  const ids = (await db.groupMembers.where('groupid').equals(groupid).toArray()).map((m) => m.userid);
  const users = await usersWithPending(db, ids);
  return [...users.values()].sort(byName);
}
