/**
 * One person's history, from their rows (history/snapshot.ts): each credential
 * with its past validity periods (a renewal in place ends one and starts the
 * next), and each finding with the day a sync first saw it and the day one saw
 * it gone. Pure, but for `loadPersonHistory`.
 */
import type { FieldbookDb } from '../db/index.ts';
import type { HistoryPersonRow } from './rows.ts';
import { byWrite, replay } from './change.ts';
import { findingOfKey } from './figures.ts';
import { readPeopleRows } from './packs.ts';

export interface ValidityPeriod {
  assignment: string;
  credentialid: number;
  /** the assignment's own dates (ISO, '' when none) */
  start: string;
  expiration: string;
  /** the day a sync first saw these dates, and the day one saw them replaced or gone (null: still held) */
  seenFrom: string;
  seenUntil: string | null;
  /** whether `seenUntil` is the day the person's site stopped being kept on this laptop (not a replacement) */
  unfollowed: boolean;
}

export interface FindingSpan {
  /** "Expired", "Missing"… */
  type: string;
  /** "credential:5", "course:7" */
  itemKey: string;
  appeared: string;
  resolved: string | null;
  /** the day the person's site stopped being kept on this laptop with the finding still open (null: it did not) */
  unfollowed: string | null;
}

export interface PersonHistory {
  periods: ValidityPeriod[];
  findings: FindingSpan[];
}

function periodsOf(rows: readonly HistoryPersonRow[], dayOf: (seq: number) => string): ValidityPeriod[] {
  const open = new Map<string, ValidityPeriod>();
  const closed: ValidityPeriod[] = [];
  for (const { row, fact } of replay(rows)) {
    const day = dayOf(row.seq);
    const now = new Map((fact?.c ?? []).map((c) => [c[0], c]));
    for (const [id, period] of open) {
      const c = now.get(id);
      if (c && c[2] === period.start && c[3] === period.expiration) continue;
      closed.push({ ...period, seenUntil: day, unfollowed: row.gone === 'laptop' });
      open.delete(id);
    }
    for (const [id, [, credentialid, start, expiration]] of now)
      if (!open.has(id))
        open.set(id, {
          assignment: id,
          credentialid,
          start,
          expiration,
          seenFrom: day,
          seenUntil: null,
          unfollowed: false,
        });
  }
  return [...closed, ...open.values()].sort(
    (a, b) => a.credentialid - b.credentialid || a.seenFrom.localeCompare(b.seenFrom),
  );
}

function findingsOf(rows: readonly HistoryPersonRow[], dayOf: (seq: number) => string): FindingSpan[] {
  const open = new Map<string, FindingSpan>();
  const spans: FindingSpan[] = [];
  for (const row of rows) {
    const day = dayOf(row.seq);
    for (const key of row.r ?? []) {
      const span = open.get(key);
      if (span) span.resolved = day;
      open.delete(key);
    }
    if (row.gone === 'laptop') {
      for (const span of open.values()) span.unfollowed = day;
      open.clear();
    }
    for (const key of row.a ?? []) {
      const span: FindingSpan = { ...findingOfKey(key), appeared: day, resolved: null, unfollowed: null };
      open.set(key, span);
      spans.push(span);
    }
  }
  return spans.sort((a, b) => b.appeared.localeCompare(a.appeared) || a.itemKey.localeCompare(b.itemKey));
}

export function personHistory(
  rows: readonly HistoryPersonRow[],
  days: ReadonlyMap<number, string>,
): PersonHistory {
  const ordered = [...rows].sort(byWrite);
  const dayOf = (seq: number) => days.get(seq) ?? '';
  return { periods: periodsOf(ordered, dayOf), findings: findingsOf(ordered, dayOf) };
}

export async function loadPersonHistory(db: FieldbookDb, userid: number): Promise<PersonHistory> {
  const rows = await readPeopleRows(db, { userid });
  const syncs = await db.historySyncs.bulkGet([...new Set(rows.map((r) => r.seq))]);
  const days = new Map(syncs.flatMap((s) => (s?.seq === undefined ? [] : [[s.seq, s.day] as const])));
  return personHistory(rows, days);
}
