/**
 * The history as earlier builds wrote it, in today's encoding. Before database version 9 (migrations.ts,
 * v9HistoryCompact): the heads' facts in their compact form (heads.ts), each finding's key ("Expired|credential:5"
 * becomes "Ek5", figures.ts) and each training assignment's course name left out where the names of the same sync
 * give it (facts.ts, `factsOf`). Versions 9 to 12 (v13HistoryHeadsCompact): the heads' gzipped facts. Pure.
 */
import { gunzipSync, strFromU8 } from 'fflate';
import { courseNamesOf, EMPTY_CATALOG, withoutCourseNames, type Catalog } from './facts.ts';
import { findingKey } from './figures.ts';
import { packFact } from './heads.ts';
import type { HistoryHeadRow, HistoryPersonRow, HistorySharedRow, PersonFact } from './rows.ts';

/** A finding key of the builds before version 9 ("Expired|credential:5") as the history keeps it now. */
export function compactFindingKey(key: string): string {
  const bar = key.indexOf('|');
  if (bar < 0) return key;
  return findingKey({ type: key.slice(0, bar), itemKey: key.slice(bar + 1) });
}

const compactKeys = (keys: readonly string[] | undefined) => keys?.map(compactFindingKey);

/** The names in force at each sync, from the names rows (each holds from its sync on). */
function catalogAt(shared: readonly HistorySharedRow[]): (seq: number) => Catalog {
  const catalogs = shared
    .filter((r) => r.kind === 'catalog')
    .sort((a, b) => a.seq - b.seq || (a.id ?? 0) - (b.id ?? 0))
    .map((r) => ({ seq: r.seq, catalog: JSON.parse(r.value) as Catalog }));
  return (seq) => catalogs.filter((c) => c.seq <= seq).at(-1)?.catalog ?? EMPTY_CATALOG;
}

/** People's rows in the short encoding, each with the names of its own sync; the same ids and syncs. */
export function compactRows(
  rows: readonly HistoryPersonRow[],
  shared: readonly HistorySharedRow[],
): HistoryPersonRow[] {
  const at = catalogAt(shared);
  const namesBySeq = new Map<number, Map<number, string>>();
  const namesOf = (seq: number) => {
    if (!namesBySeq.has(seq)) namesBySeq.set(seq, courseNamesOf(at(seq)));
    return namesBySeq.get(seq)!;
  };
  return rows.map((row) => {
    const { a, r, t, ...rest } = row;
    return {
      ...rest,
      ...(t ? { t: withoutCourseNames(t, namesOf(row.seq)) } : {}),
      ...(a ? { a: compactKeys(a) } : {}),
      ...(r ? { r: compactKeys(r) } : {}),
    };
  });
}

/** A head as the builds before version 9 kept it: its fact as JSON text. */
export type OldHeadRow = Omit<HistoryHeadRow, 'fact'> & { fact: string };

/** The heads in the short encoding, with the latest names (those the next snapshot compares with). */
export function compactHeads(
  heads: readonly OldHeadRow[],
  shared: readonly HistorySharedRow[],
): HistoryHeadRow[] {
  const courseNames = courseNamesOf(catalogAt(shared)(Number.POSITIVE_INFINITY));
  return heads.map((head) => {
    const fact = JSON.parse(head.fact) as PersonFact;
    const compact: PersonFact = { ...fact, t: withoutCourseNames(fact.t, courseNames) };
    const findings = head.findings.map(compactFindingKey).sort();
    return { ...head, fact: packFact(compact), findings };
  });
}

/** Whether a head's fact is gzipped, as versions 9 to 12 kept it (gzip's two first bytes; heads.ts never starts so). */
const gzipped = (fact: Uint8Array) => fact[0] === 0x1f && fact[1] === 0x8b;

/**
 * A head of versions 9 to 12 (its fact's JSON text gzipped) in the compact form of version 13 (heads.ts); a head
 * already in that form (written by version 9's upgrade, which runs before) is kept as it is.
 */
export function headOfVersion12(head: HistoryHeadRow): HistoryHeadRow {
  if (!gzipped(head.fact)) return head;
  const fact = JSON.parse(strFromU8(gunzipSync(head.fact))) as PersonFact;
  return { ...head, fact: packFact(fact) };
}
