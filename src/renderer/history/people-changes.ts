/**
 * What a snapshot writes of the people it looked at (history/snapshot.ts): the row of each person new, changed,
 * whose findings changed, or gone, and the heads to put. Pure.
 */
import { factChange, findingsChange, sameFact as sameFacts } from './change.ts';
import { nextFindingsChange } from './figures.ts';
import { headFact, packFact } from './heads.ts';
import type { HistoryHeadRow, HistoryPersonRow, PersonFact } from './rows.ts';

/** What changed for the history since the previous snapshot. Pure. */
export interface PeopleChanges {
  rows: Omit<HistoryPersonRow, 'seq'>[];
  put: HistoryHeadRow[];
  gone: number[];
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The row of a person no longer in the cache: gone from the platform, or (their site no longer among the sites the
 * cache holds) from this laptop only, whose open findings are then not resolved.
 */
function goneRow(head: HistoryHeadRow, held: ReadonlySet<number>): Omit<HistoryPersonRow, 'seq'> {
  const siteid = headFact(head).u[0];
  if (!held.has(siteid)) return { userid: head.userid, gone: 'laptop' };
  return { userid: head.userid, gone: 'platform', ...findingsChange(head.findings, []) };
}

/** The row of a person in the cache, or null when neither they nor their findings changed. */
function changedRow(
  userid: number,
  head: HistoryHeadRow | undefined,
  sameFact: boolean,
  fact: PersonFact,
  now: readonly string[],
  factOf: (head: HistoryHeadRow) => PersonFact,
): Omit<HistoryPersonRow, 'seq'> | null {
  if (head && sameFact && sameList(head.findings, now)) return null;
  const before = head && !sameFact ? factOf(head) : undefined;
  const change = !head ? factChange(undefined, fact) : before ? factChange(before, fact) : {};
  return { userid, ...change, ...findingsChange(head?.findings ?? [], now) };
}

/** What the people's changes are counted against: the sites the cache holds and the day. */
export interface ChangesContext {
  held: ReadonlySet<number>;
  day: string;
  /** a head's fact, where the caller has it parsed already */
  factOf?: (head: HistoryHeadRow) => PersonFact;
  /** whether a fact is the head's own, read from it (a person due by date alone): the same without comparing */
  isHeadsOwn?: (head: HistoryHeadRow, fact: PersonFact) => boolean;
}

/**
 * The rows to write: a person new, changed, whose findings changed, or gone; the others write nothing. `heads`: the
 * heads of every person the snapshot looked at; each head's next day of a change of findings with the date alone is
 * counted from the snapshot's day (a head is rewritten when only that moved).
 */
export function peopleChanges(
  heads: readonly HistoryHeadRow[],
  facts: ReadonlyMap<number, PersonFact>,
  findings: ReadonlyMap<number, readonly string[]>,
  { held, day, factOf = headFact, isHeadsOwn = () => false }: ChangesContext,
): PeopleChanges {
  const before = new Map(heads.map((h) => [h.userid, h]));
  const out: PeopleChanges = { rows: [], put: [], gone: [] };
  for (const [userid, fact] of facts) {
    const now = [...(findings.get(userid) ?? [])];
    const head = before.get(userid);
    const sameFact = !!head && (isHeadsOwn(head, fact) || sameFacts(factOf(head), fact));
    const row = changedRow(userid, head, sameFact, fact, now, factOf);
    const next = nextFindingsChange(fact, day);
    if (row) out.rows.push(row);
    if (row || head?.next !== next)
      out.put.push({
        userid,
        fact: head && sameFact ? head.fact : packFact(fact),
        findings: now,
        ...(next ? { next } : {}),
      });
  }
  for (const head of heads) {
    if (facts.has(head.userid)) continue;
    out.rows.push(goneRow(head, held));
    out.gone.push(head.userid);
  }
  return out;
}
