/**
 * The history as a typed XLSX (the one spreadsheet writer, shared/spreadsheet-export.ts):
 * one sheet of daily figures (per sync, per scope), one of per-person changes (each
 * finding that appeared or was resolved, each person who came or went). Pure, but
 * for `historyXlsx`.
 */
import { writeXlsxSheets, type ExportSheet } from '../../shared/spreadsheet-export.ts';
import type { FieldbookDb } from '../db/index.ts';
import { FINDING_TYPES, nameOf } from '../features/report/model.ts';
import type { HistoryPersonRow, HistorySyncRow, PersonFact } from './rows.ts';
import { replay } from './change.ts';
import { findingOfKey } from './figures.ts';
import { readPeopleRows } from './packs.ts';
import { readSyncs } from './sync-figures.ts';

export interface ExportNames {
  scope: (scope: string) => string;
  item: (itemKey: string) => string;
}

function figuresSheet(syncs: readonly HistorySyncRow[], names: ExportNames): ExportSheet {
  const header = ['Day', 'Synced at', 'Scope', 'People', 'Compliant', '% compliant', ...FINDING_TYPES];
  const rows = syncs.flatMap((s) =>
    s.figures.map((f) => [
      s.day,
      s.at,
      names.scope(f.scope),
      f.people,
      f.compliant,
      f.people === 0 ? '' : Math.round((f.compliant / f.people) * 1000) / 10,
      ...FINDING_TYPES.map((t) => f.findings[t] ?? 0),
    ]),
  );
  return { name: 'Daily figures', rows: [header, ...rows], types: ['date', 'datetime', 'text'] };
}

const personOf = (fact: PersonFact) => {
  const [, username, firstname, lastname, employeeid] = fact.u;
  return [nameOf({ username, firstname, lastname }), employeeid] as const;
};

/** A person's coming or going, in words: null when the row is neither. */
function comeOrGone(row: HistoryPersonRow, known: boolean, wasUnkept: boolean): string | null {
  if (row.gone === 'laptop') return 'Site no longer kept on this laptop';
  if (row.gone) return 'No longer on the platform';
  if (known) return null;
  return wasUnkept ? 'Site kept again on this laptop' : 'First seen';
}

function changesSheet(
  people: readonly HistoryPersonRow[],
  dayOf: (seq: number) => string,
  names: ExportNames,
): ExportSheet {
  const header = ['Day', 'Person', 'Employee ID', 'Change', 'Finding', 'Credential or course'];
  /** the people last seen when their site stopped being kept on this laptop */
  const unkept = new Set<number>();
  const rows: unknown[][] = [];
  for (const { row, before, fact } of replay(people)) {
    const known = fact ?? before;
    const [person, employeeid] = known ? personOf(known) : [`Person ${row.userid}`, ''];
    const day = dayOf(row.seq);
    const change = comeOrGone(row, before !== undefined, unkept.has(row.userid));
    if (change) rows.push([day, person, employeeid, change, '', '']);
    for (const [change, keys] of [
      ['Finding appeared', row.a ?? []],
      ['Finding resolved', row.r ?? []],
    ] as const)
      for (const key of keys) {
        const { type, itemKey } = findingOfKey(key);
        rows.push([day, person, employeeid, change, type, names.item(itemKey)]);
      }
    if (row.gone === 'laptop') unkept.add(row.userid);
    else unkept.delete(row.userid);
  }
  return { name: 'Changes per person', rows: [header, ...rows], types: ['date', 'text', 'text'] };
}

export function historySheets(
  syncs: readonly HistorySyncRow[],
  people: readonly HistoryPersonRow[],
  names: ExportNames,
): ExportSheet[] {
  const ordered = [...syncs].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  const days = new Map(ordered.map((s) => [s.seq, s.day]));
  return [figuresSheet(ordered, names), changesSheet(people, (seq) => days.get(seq) ?? '', names)];
}

async function exportNames(db: FieldbookDb): Promise<ExportNames> {
  const [sites, groups, credentials, courses] = await Promise.all([
    db.sites.toArray(),
    db.groups.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
  ]);
  const idOf = (key: string) => Number(key.slice(key.indexOf(':') + 1));
  return {
    scope: (scope) => {
      const id = idOf(scope);
      if (scope.startsWith('site:')) return sites.find((s) => s.siteid === id)?.sitename ?? scope;
      if (scope.startsWith('group:')) return `Group ${groups.find((g) => g.groupid === id)?.groupname ?? id}`;
      return `User type ${scope.slice(scope.indexOf(':') + 1)}`;
    },
    item: (key) =>
      key.startsWith('course:')
        ? (courses.find((c) => c.courseid === idOf(key))?.coursename ?? key)
        : (credentials.find((c) => c.credentialid === idOf(key))?.credentialname ?? key),
  };
}

/** The whole history of the profile as an XLSX file. */
export async function historyXlsx(db: FieldbookDb): Promise<Blob> {
  const [syncs, people, names] = await Promise.all([readSyncs(db), readPeopleRows(db), exportNames(db)]);
  const bytes = writeXlsxSheets(historySheets(syncs, people, names));
  return new Blob([bytes], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}
