/**
 * Requirements as a table, to prepare them in a spreadsheet and bring them
 * back: one row per requirement, everything by name (site, group as
 * "Category: Group", user type, credential or course). Reading is
 * all-or-nothing: a row that names nothing known is an error that says which
 * row and why, and nothing is added until every row reads.
 */
import type {
  CourseRecord,
  CredentialCategoryRecord,
  CredentialRecord,
  GroupRecord,
  ProfileCategoryRecord,
  SiteRecord,
} from '../../../shared/records.ts';
import { parseItemKey, requirementRow, type RequirementRow } from './model.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';

export const REQUIREMENT_HEADERS = [
  'Site',
  'Applies to',
  'Group or user type',
  'Kind',
  'Credential or course',
] as const;
const EVERYONE = 'Everyone at the site';

/** What the names are resolved against. */
export interface RequirementCatalog {
  sites: readonly SiteRecord[];
  categories: readonly ProfileCategoryRecord[];
  groups: readonly GroupRecord[];
  credentialCategories: readonly CredentialCategoryRecord[];
  credentials: readonly CredentialRecord[];
  courses: readonly CourseRecord[];
}

const fold = (s: string) => s.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/** "Role: Driver" */
export function groupLabel(group: GroupRecord, categories: readonly ProfileCategoryRecord[]): string {
  const category = categories.find((c) => c.categoryid === group.categoryid);
  return category ? `${category.categoryname}: ${group.groupname}` : group.groupname;
}

/** The site a credential belongs to (through its category), null when unknown. */
const credentialSite = (c: CredentialRecord, catalog: RequirementCatalog) =>
  catalog.credentialCategories.find((k) => k.categoryid === c.categoryid)?.siteid ?? null;

function scopeCells(scope: string, catalog: RequirementCatalog): [string, string, string] {
  const [kind, id] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  const siteName = (siteid: number) =>
    catalog.sites.find((s) => s.siteid === siteid)?.sitename ?? NOT_HERE.site;
  if (kind === 'site') return [siteName(Number(id)), EVERYONE, ''];
  if (kind === 'usertype') return ['', 'User type', id];
  const group = catalog.groups.find((g) => g.groupid === Number(id));
  return group
    ? [siteName(group.siteid), 'Group', groupLabel(group, catalog.categories)]
    : ['', 'Group', NOT_HERE.group];
}

/** The requirements as rows under REQUIREMENT_HEADERS. */
export function requirementsTable(rows: readonly RequirementRow[], catalog: RequirementCatalog): string[][] {
  const body = rows.map((r) => {
    const item = parseItemKey(r.item);
    const name =
      item.kind === 'credential'
        ? (catalog.credentials.find((c) => c.credentialid === item.credentialid)?.credentialname ??
          NOT_HERE.credential)
        : (catalog.courses.find((c) => c.courseid === item.courseid)?.coursename ?? NOT_HERE.course);
    return [...scopeCells(r.scope, catalog), item.kind === 'credential' ? 'Credential' : 'Course', name];
  });
  const byCells = (a: string[], b: string[]) =>
    a.reduce((order, cell, i) => order || cell.localeCompare(b[i]!), 0);
  return [[...REQUIREMENT_HEADERS], ...body.sort(byCells)];
}

export type ReadRequirements = { ok: true; rows: RequirementRow[] } | { ok: false; errors: string[] };

function readScope(
  cells: Record<string, string>,
  catalog: RequirementCatalog,
): { scope: string; siteid: number | null } | string {
  const appliesTo = fold(cells['applies to'] ?? '');
  const who = cells['group or user type']?.trim() ?? '';
  if (appliesTo === 'user type')
    return who ? { scope: `usertype:${who}`, siteid: null } : 'the user type is empty';
  const site = catalog.sites.find((s) => fold(s.sitename) === fold(cells['site'] ?? ''));
  if (!site) return `no site is called “${cells['site'] ?? ''}”`;
  if (appliesTo === fold(EVERYONE)) return { scope: `site:${site.siteid}`, siteid: site.siteid };
  if (appliesTo !== 'group')
    return `“Applies to” must be “${EVERYONE}”, “Group” or “User type”, not “${cells['applies to'] ?? ''}”`;
  const matches = catalog.groups.filter(
    (g) =>
      g.siteid === site.siteid &&
      (fold(groupLabel(g, catalog.categories)) === fold(who) || fold(g.groupname) === fold(who)),
  );
  if (matches.length === 1) return { scope: `group:${matches[0]!.groupid}`, siteid: site.siteid };
  return matches.length === 0
    ? `no group “${who}” at ${site.sitename}`
    : `“${who}” names ${matches.length} groups at ${site.sitename}: write it as “Category: Group”`;
}

function readItem(cells: Record<string, string>, siteid: number | null, catalog: RequirementCatalog): string {
  const kind = fold(cells['kind'] ?? '');
  const typed = cells['credential or course'] ?? '';
  const name = fold(typed);
  if (kind === 'credential') {
    const found = catalog.credentials.filter(
      (c) =>
        fold(c.credentialname) === name &&
        (siteid === null || credentialSite(c, catalog) === null || credentialSite(c, catalog) === siteid),
    );
    const problem = found.length === 0 ? 'no credential is called' : 'more than one credential is called';
    return found.length === 1 ? `credential:${found[0]!.credentialid}` : `!${problem} “${typed}”`;
  }
  if (kind === 'course') {
    const found = catalog.courses.filter(
      (c) => fold(c.coursename) === name && (siteid === null || c.siteid === siteid),
    );
    const problem = found.length === 0 ? 'no course is called' : 'more than one course is called';
    return found.length === 1 ? `course:${found[0]!.courseid}` : `!${problem} “${typed}”`;
  }
  return `!“Kind” must be “Credential” or “Course”, not “${cells['kind'] ?? ''}”`;
}

/** Reads rows (the first is the header) into requirements, or says which rows do not read and why. */
export function readRequirements(
  table: readonly { rowNumber: number; cells: readonly string[] }[],
  catalog: RequirementCatalog,
): ReadRequirements {
  const [header, ...rows] = table;
  const columns = (header?.cells ?? []).map(fold);
  const absent = REQUIREMENT_HEADERS.filter((h) => (h === 'Site' ? false : !columns.includes(fold(h))));
  if (!header || absent.length > 0) {
    const quoted = (names: readonly string[]) => names.map((h) => `“${h}”`).join(', ');
    const expected = quoted(REQUIREMENT_HEADERS);
    const missing = quoted(absent) || 'all';
    return { ok: false, errors: [`The first row must name the columns ${expected}; missing: ${missing}.`] };
  }
  const errors: string[] = [];
  const out = new Map<string, RequirementRow>();
  for (const row of rows) {
    const cells = Object.fromEntries(columns.map((c, i) => [c, row.cells[i] ?? '']));
    const scope = readScope(cells, catalog);
    const item = typeof scope === 'string' ? '' : readItem(cells, scope.siteid, catalog);
    if (typeof scope === 'string') errors.push(`Row ${row.rowNumber}: ${scope}.`);
    else if (item.startsWith('!')) errors.push(`Row ${row.rowNumber}: ${item.slice(1)}.`);
    else out.set(`${scope.scope}|${item}`, requirementRow(scope.scope, item));
  }
  if (errors.length > 0) return { ok: false, errors };
  if (out.size === 0)
    return {
      ok: false,
      errors: ['The file holds no requirement: one row per requirement, under the header row.'],
    };
  return { ok: true, rows: [...out.values()] };
}
