/**
 * The "Requirements" tab: what each group, user type or everyone at a site
 * must hold, as a grid of groups × credentials and courses; copy one group's
 * requirements to another; import and export them as XLSX or CSV. Local to
 * this laptop and profile: nothing here is ever sent to the platform.
 */
import { useState } from 'react';
import { oneSite, SiteChoice, useChosenSite, type ChosenSite } from '../../app/SiteChoice.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { plural } from '../../app/words.ts';
import { exportTable } from '../../app/export-list.ts';
import type { FieldbookDb } from '../../db/index.ts';
import {
  copiedRequirements,
  itemKey,
  requirementRow,
  type RequiredItem,
  type RequirementRow,
} from './model.ts';
import { groupLabel, requirementsTable, type RequirementCatalog } from './io.ts';
import { RequirementsImport } from './RequirementsImport.tsx';

interface Column {
  scope: string;
  label: string;
}

async function loadCatalog(
  db: FieldbookDb,
): Promise<RequirementCatalog & { usertypes: Map<number, string[]> }> {
  const [sites, categories, groups, credentialCategories, credentials, courses, users] = await Promise.all([
    db.sites.toArray(),
    db.profileCategories.toArray(),
    db.groups.toArray(),
    db.credentialCategories.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
    db.users.toArray(),
  ]);
  const usertypes = new Map<number, string[]>();
  for (const u of users)
    if (u.usertype && !(usertypes.get(u.siteid) ?? []).includes(u.usertype))
      usertypes.set(u.siteid, [...(usertypes.get(u.siteid) ?? []), u.usertype].sort());
  return { sites, categories, groups, credentialCategories, credentials, courses, usertypes };
}

/** The columns of the grid: everyone at the site, then the groups of the chosen category (or the user types). */
function columnsOf(
  catalog: RequirementCatalog & { usertypes: Map<number, string[]> },
  siteid: number,
  categoryid: number | 'usertypes',
): Column[] {
  const site = catalog.sites.find((s) => s.siteid === siteid);
  const everyone = { scope: `site:${siteid}`, label: `Everyone at ${site?.sitename ?? 'the site'}` };
  if (categoryid === 'usertypes')
    return [
      everyone,
      ...(catalog.usertypes.get(siteid) ?? []).map((t) => ({
        scope: `usertype:${t}`,
        label: `User type: ${t}`,
      })),
    ];
  const groups = catalog.groups
    .filter((g) => g.siteid === siteid && g.categoryid === categoryid)
    .sort((a, b) => a.groupname.localeCompare(b.groupname));
  return [everyone, ...groups.map((g) => ({ scope: `group:${g.groupid}`, label: g.groupname }))];
}

/** Every column a requirement can be copied from or to, at a site. */
function allScopes(
  catalog: RequirementCatalog & { usertypes: Map<number, string[]> },
  siteid: number,
): Column[] {
  const groups = catalog.groups
    .filter((g) => g.siteid === siteid)
    .map((g) => ({ scope: `group:${g.groupid}`, label: groupLabel(g, catalog.categories) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [
    ...columnsOf(catalog, siteid, 'usertypes').slice(0, 1),
    ...groups,
    ...columnsOf(catalog, siteid, 'usertypes').slice(1),
  ];
}

function CopyForm({
  db,
  scopes,
  rows,
}: {
  db: FieldbookDb;
  scopes: Column[];
  rows: readonly RequirementRow[];
}) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const copy = async () => {
    const added = copiedRequirements(rows, from, to);
    await db.requirements.bulkPut(added);
    setDone(
      `${plural(added.length, 'requirement')} copied to ${scopes.find((s) => s.scope === to)?.label ?? to}.`,
    );
  };
  const count = (scope: string) => rows.filter((r) => r.scope === scope).length;
  return (
    <div className="toolbar">
      <label>
        Copy the requirements of{' '}
        <select aria-label="Copy the requirements of" value={from} onChange={(e) => setFrom(e.target.value)}>
          <option value="">choose…</option>
          {scopes
            .filter((s) => count(s.scope) > 0)
            .map((s) => (
              <option key={s.scope} value={s.scope}>
                {s.label} ({count(s.scope)})
              </option>
            ))}
        </select>
      </label>
      <label>
        to{' '}
        <select aria-label="Copy them to" value={to} onChange={(e) => setTo(e.target.value)}>
          <option value="">choose…</option>
          {scopes
            .filter((s) => s.scope !== from)
            .map((s) => (
              <option key={s.scope} value={s.scope}>
                {s.label}
              </option>
            ))}
        </select>
      </label>
      <button type="button" disabled={!from || !to || from === to} onClick={() => void copy()}>
        Copy
      </button>
      {done && <p role="status">{done}</p>}
    </div>
  );
}

function Grid({
  db,
  columns,
  items,
  rows,
}: {
  db: FieldbookDb;
  columns: Column[];
  items: { item: RequiredItem; label: string }[];
  rows: readonly RequirementRow[];
}) {
  const set = new Set(rows.map((r) => r.id));
  const toggle = async (scope: string, item: RequiredItem, on: boolean) => {
    const row = requirementRow(scope, item);
    if (on) await db.requirements.put(row);
    else await db.requirements.delete(row.id);
  };
  return (
    <div className="requirements-grid">
      <table className="report-table" aria-label="Requirements">
        <thead>
          <tr>
            <th scope="col">Credential or course</th>
            {columns.map((c) => (
              <th key={c.scope} scope="col">
                {c.label}{' '}
                <span className="report-also">({rows.filter((r) => r.scope === c.scope).length})</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {items.map(({ item, label }) => (
            <tr key={itemKey(item)}>
              <th scope="row">{label}</th>
              {columns.map((c) => {
                const id = requirementRow(c.scope, item).id;
                return (
                  <td key={c.scope}>
                    <input
                      type="checkbox"
                      aria-label={`${label} required of ${c.label}`}
                      checked={set.has(id)}
                      onChange={(e) => void toggle(c.scope, item, e.target.checked)}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type CategoryChoice = number | 'usertypes';

/** The rows of the grid: the site's credentials, then its courses, each by name. */
function itemsOf(catalog: RequirementCatalog, siteid: number): { item: RequiredItem; label: string }[] {
  const credentialSites = new Map(catalog.credentialCategories.map((c) => [c.categoryid, c.siteid]));
  return [
    ...catalog.credentials
      .filter((c) => (credentialSites.get(c.categoryid) ?? siteid) === siteid)
      .sort((a, b) => a.credentialname.localeCompare(b.credentialname))
      .map((c) => ({
        item: { kind: 'credential', credentialid: c.credentialid } as const,
        label: c.credentialname,
      })),
    ...catalog.courses
      .filter((c) => c.siteid === siteid)
      .sort((a, b) => a.coursename.localeCompare(b.coursename))
      .map((c) => ({
        item: { kind: 'course', courseid: c.courseid } as const,
        label: `Course: ${c.coursename}`,
      })),
  ];
}

export default function RequirementsView() {
  const db = useActiveDb();
  const catalog = useLiveQuery(async () => (db ? loadCatalog(db) : null), [db]);
  const rows = useLiveQuery(async () => (db ? db.requirements.toArray() : []), [db]) ?? [];
  // the site the coordinator looks after (the first when every site is chosen: requirements are set per site)
  const chosen = useChosenSite();
  const [categoryChoice, setCategory] = useState<CategoryChoice | null>(null);
  if (!db || !catalog)
    return (
      <section className="view">
        <h1>Requirements</h1>
        <p role="status">Loading…</p>
      </section>
    );
  const siteid = oneSite(chosen) ?? catalog.sites[0]?.siteid ?? 0;
  const categories = catalog.categories
    .filter((c) => c.siteid === siteid)
    .sort((a, b) => a.categoryname.localeCompare(b.categoryname));
  const categoryid = categoryChoice ?? categories[0]?.categoryid ?? 'usertypes';
  const items = itemsOf(catalog, siteid);
  const choice = { catalog, chosen, categoryid, categories, onCategory: setCategory };
  return (
    <section className="view requirements-view" aria-labelledby="requirements-heading">
      <h1 id="requirements-heading">Requirements</h1>
      <p className="report-note">
        What each person must hold and complete, for the compliance report. Kept on this laptop, in this
        profile only: never sent to the platform. {plural(rows.length, 'requirement')} set.
      </p>
      <RequirementsToolbar {...choice} rows={rows} />
      <RequirementsImport db={db} catalog={catalog} />
      <CopyForm db={db} scopes={allScopes(catalog, siteid)} rows={rows} />
      {items.length === 0 ? (
        <p>No credential or course at this site yet: sync first.</p>
      ) : (
        <Grid db={db} columns={columnsOf(catalog, siteid, categoryid)} items={items} rows={rows} />
      )}
    </section>
  );
}

/** The site and the columns shown, and the exports. */
function RequirementsToolbar({
  catalog,
  chosen,
  categoryid,
  categories,
  rows,
  onCategory,
}: {
  catalog: RequirementCatalog;
  chosen: ChosenSite;
  categoryid: CategoryChoice;
  categories: RequirementCatalog['categories'];
  rows: readonly RequirementRow[];
  onCategory: (categoryid: CategoryChoice | null) => void;
}) {
  return (
    <div className="toolbar">
      <SiteChoice chosen={chosen} everySite={false} onChoose={() => onCategory(null)} />
      <label>
        Columns{' '}
        <select
          value={String(categoryid)}
          onChange={(e) => onCategory(e.target.value === 'usertypes' ? 'usertypes' : Number(e.target.value))}
        >
          {categories.map((c) => (
            <option key={c.categoryid} value={c.categoryid}>
              {c.categoryname} groups
            </option>
          ))}
          <option value="usertypes">User types</option>
        </select>
      </label>
      <button
        type="button"
        disabled={rows.length === 0}
        onClick={() => void exportTable(tableOfRows(rows, catalog), 'requirements', 'xlsx')}
      >
        Export XLSX
      </button>
      <button
        type="button"
        disabled={rows.length === 0}
        onClick={() => void exportTable(tableOfRows(rows, catalog), 'requirements', 'csv')}
      >
        Export CSV
      </button>
    </div>
  );
}

function tableOfRows(rows: readonly RequirementRow[], catalog: RequirementCatalog) {
  const [headers, ...body] = requirementsTable(rows, catalog);
  return { headers: headers!, rows: body };
}
