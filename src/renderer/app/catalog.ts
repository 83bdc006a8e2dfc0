/**
 * Names with their context: a group's site and profile category, a feature's
 * site, a credential's category. Every group name exists on every site, so a
 * name alone is never enough to pick or read one. Pickers get sorted option
 * groups (one per site and category); lists get the name with its context.
 */
import type {
  CourseRecord,
  CredentialCategoryRecord,
  CredentialRecord,
  GroupRecord,
  ModuleRecord,
  ProfileCategoryRecord,
  SiteRecord,
} from '../../shared/records.ts';
import { NO_NAME, NOT_ON_THIS_LAPTOP as NOT_HERE } from './words.ts';

export interface CatalogNames {
  sites: ReadonlyMap<number, string>;
  profileCategories: ReadonlyMap<number, string>;
  /** credential category id -> its site id (every site has its own "Safety") */
  credentialCategorySites?: ReadonlyMap<number, number>;
}

export interface Choice {
  value: number;
  label: string;
}
export interface ChoiceGroup {
  label: string;
  choices: Choice[];
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
export const compareText = (a: string, b: string): number => collator.compare(a, b);

export function catalogNames(
  sites: readonly SiteRecord[],
  categories: readonly ProfileCategoryRecord[],
  credentialCategories: readonly CredentialCategoryRecord[] = [],
): CatalogNames {
  return {
    sites: new Map(sites.map((s) => [s.siteid, s.sitename])),
    profileCategories: new Map(categories.map((c) => [c.categoryid, c.categoryname])),
    credentialCategorySites: new Map(credentialCategories.map((c) => [c.categoryid, c.siteid])),
  };
}

export function siteName(siteid: number, names: CatalogNames): string {
  return names.sites.get(siteid) ?? NOT_HERE.site;
}

/** "North · Crews": the group's site, then its profile category when it has one. */
export function groupContext(g: Pick<GroupRecord, 'siteid' | 'categoryid'>, names: CatalogNames): string {
  const category = names.profileCategories.get(g.categoryid);
  return category ? `${siteName(g.siteid, names)} · ${category}` : siteName(g.siteid, names);
}

/** "Operations (North · Crews)" */
export function groupLabel(g: GroupRecord, names: CatalogNames): string {
  return `${g.groupname} (${groupContext(g, names)})`;
}

/** "Reports: View (North)" */
export function featureLabel(f: ModuleRecord, names: CatalogNames): string {
  return `${f.moduleName}: ${f.functionName} (${siteName(f.siteid, names)})`;
}

/** "Rigging (Safety)", or with the category's site when known: "Rigging (Safety · North)" */
export function credentialLabel(
  c: Pick<CredentialRecord, 'credentialname' | 'categoryname' | 'categoryid'>,
  names?: CatalogNames,
): string {
  return c.categoryname ? `${c.credentialname} (${credentialCategoryContext(c, names)})` : c.credentialname;
}

function grouped<T>(
  items: readonly T[],
  groupOf: (item: T) => string,
  choiceOf: (item: T) => Choice,
): ChoiceGroup[] {
  const groups = new Map<string, Choice[]>();
  for (const item of items) {
    const key = groupOf(item);
    const list = groups.get(key) ?? [];
    list.push(choiceOf(item));
    groups.set(key, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([label, choices]) => ({
      label,
      choices: choices.sort((a, b) => compareText(a.label, b.label) || a.value - b.value),
    }));
}

/** The site a picker keeps to (the one the coordinator looks after), undefined or null for every site. */
type OnlySite = number | null | undefined;

const ofSite = (only: OnlySite, siteid: number | undefined) =>
  only === undefined || only === null || siteid === only;

/**
 * Groups under "site · category" headings, sorted, each naming its site ("Driver (North)"):
 * a closed picker shows the chosen option alone, and every site has its own "Driver".
 */
export function groupChoices(
  groups: readonly GroupRecord[],
  names: CatalogNames,
  only?: OnlySite,
): ChoiceGroup[] {
  const kept = groups.filter((g) => ofSite(only, g.siteid));
  return grouped(
    kept,
    (g) => groupContext(g, names),
    (g) => ({ value: g.groupid, label: `${g.groupname} (${siteName(g.siteid, names)})` }),
  );
}

/**
 * Features under their module's heading, one choice per feature id (granted on
 * each person's own site); a feature not offered on every cached site names
 * the sites that have it.
 */
export function featureChoices(modules: readonly ModuleRecord[], names: CatalogNames): ChoiceGroup[] {
  const byId = new Map<number, ModuleRecord[]>();
  for (const m of modules) byId.set(m.accessID, [...(byId.get(m.accessID) ?? []), m]);
  const siteCount = new Set(modules.map((m) => m.siteid)).size;
  const firsts = [...byId.values()].map((list) => ({
    module: list[0]!,
    sites: list.map((m) => siteName(m.siteid, names)).sort(compareText),
  }));
  return grouped(
    firsts,
    (f) => f.module.moduleName,
    (f) => ({
      value: f.module.accessID,
      label:
        f.sites.length < siteCount
          ? `${f.module.functionName} (${f.sites.join(', ')} only)`
          : f.module.functionName,
    }),
  );
}

/**
 * "Safety · North": a credential category and, when known, its site (each site has its own categories of the same
 * names).
 */
export function credentialCategoryContext(
  c: Pick<CredentialRecord, 'categoryid' | 'categoryname'>,
  names?: CatalogNames,
): string {
  const category = c.categoryname || 'No category';
  const siteid = names?.credentialCategorySites?.get(c.categoryid);
  return siteid === undefined ? category : `${category} · ${siteName(siteid, names!)}`;
}

/** Whether a credential is of the site chosen (by its category's site; every credential when none is chosen). */
export function credentialOfSite(
  c: Pick<CredentialRecord, 'categoryid'>,
  names: CatalogNames | undefined,
  only: OnlySite,
): boolean {
  return ofSite(only, names?.credentialCategorySites?.get(c.categoryid));
}

/** Credentials under their category and its site, sorted, each naming them too ("Rigging (Safety · North)"). */
export function credentialChoices(
  credentials: readonly CredentialRecord[],
  names?: CatalogNames,
  only?: OnlySite,
): ChoiceGroup[] {
  const kept = credentials.filter((c) => credentialOfSite(c, names, only));
  return grouped(
    kept,
    (c) => credentialCategoryContext(c, names),
    (c) => ({ value: c.credentialid, label: credentialLabel(c, names) }),
  );
}

/** Courses under their site, sorted, each naming its site ("Induction (North)"). */
export function courseChoices(
  courses: readonly CourseRecord[],
  names: CatalogNames,
  only?: OnlySite,
): ChoiceGroup[] {
  const kept = courses.filter((c) => ofSite(only, c.siteid));
  return grouped(
    kept,
    (c) => siteName(c.siteid, names),
    (c) => ({ value: c.courseid, label: `${c.coursename || NO_NAME.course} (${siteName(c.siteid, names)})` }),
  );
}

/** Sort order of groups in lists: site, category, name. */
export function compareGroups(a: GroupRecord, b: GroupRecord, names: CatalogNames): number {
  return (
    compareText(siteName(a.siteid, names), siteName(b.siteid, names)) ||
    compareText(
      names.profileCategories.get(a.categoryid) ?? '',
      names.profileCategories.get(b.categoryid) ?? '',
    ) ||
    compareText(a.groupname, b.groupname) ||
    a.groupid - b.groupid
  );
}
