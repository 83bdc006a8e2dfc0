/**
 * The history's snapshot at the end of a completed sync: the day's figures, the
 * people who (or whose findings) changed since the previous snapshot, and the names
 * and requirements when they changed, all written in one transaction, so a day is
 * there whole or not at all. Read from the cache as the sync left it: changes still
 * in the Outbox are not on the platform yet and are not history.
 */
import type { FieldbookDb } from '../db/index.ts';
import type { ReportInput } from '../features/report/model.ts';
import { catalogOf, factsOf, type Catalog } from './facts.ts';
import { dayFigures, findingsByPerson } from './figures.ts';
import { factChange } from './change.ts';
import type { HistoryHeadRow, HistoryPersonRow, HistorySharedRow, PersonFact } from './rows.ts';

/** What changed for the history since the previous snapshot. Pure. */
export interface PeopleChanges {
  rows: Omit<HistoryPersonRow, 'seq'>[];
  put: HistoryHeadRow[];
  gone: number[];
}

const minus = (a: readonly string[], b: readonly string[]) => {
  const other = new Set(b);
  return a.filter((x) => !other.has(x));
};
const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/** The findings that appeared and went away, as a row holds them (absent: none). */
function findingsChange(was: readonly string[], now: readonly string[]): Pick<HistoryPersonRow, 'a' | 'r'> {
  const [a, r] = [minus(now, was), minus(was, now)];
  return { ...(a.length > 0 ? { a } : {}), ...(r.length > 0 ? { r } : {}) };
}

/**
 * The row of a person no longer in the cache: gone from the platform, or (their site no longer among the sites the
 * cache holds) from this laptop only, whose open findings are then not resolved.
 */
function goneRow(head: HistoryHeadRow, held: ReadonlySet<number>): Omit<HistoryPersonRow, 'seq'> {
  const siteid = (JSON.parse(head.fact) as PersonFact).u[0];
  if (!held.has(siteid)) return { userid: head.userid, gone: 'laptop' };
  return { userid: head.userid, gone: 'platform', ...findingsChange(head.findings, []) };
}

/** The row of a person in the cache, or null when neither they nor their findings changed. */
function changedRow(
  userid: number,
  head: HistoryHeadRow | undefined,
  fact: PersonFact,
  text: string,
  now: readonly string[],
): Omit<HistoryPersonRow, 'seq'> | null {
  if (head && head.fact === text && sameList(head.findings, now)) return null;
  const before = head && head.fact !== text ? (JSON.parse(head.fact) as PersonFact) : undefined;
  const change = !head ? factChange(undefined, fact) : before ? factChange(before, fact) : {};
  return { userid, ...change, ...findingsChange(head?.findings ?? [], now) };
}

/**
 * The rows to write: a person new, changed, whose findings changed, or gone; the others write nothing. `held`: the
 * sites the cache holds.
 */
export function peopleChanges(
  heads: readonly HistoryHeadRow[],
  facts: ReadonlyMap<number, PersonFact>,
  findings: ReadonlyMap<number, readonly string[]>,
  held: ReadonlySet<number>,
): PeopleChanges {
  const before = new Map(heads.map((h) => [h.userid, h]));
  const out: PeopleChanges = { rows: [], put: [], gone: [] };
  for (const [userid, fact] of facts) {
    const text = JSON.stringify(fact);
    const now = [...(findings.get(userid) ?? [])];
    const row = changedRow(userid, before.get(userid), fact, text, now);
    if (!row) continue;
    out.rows.push(row);
    out.put.push({ userid, fact: text, findings: now });
  }
  for (const head of heads) {
    if (facts.has(head.userid)) continue;
    out.rows.push(goneRow(head, held));
    out.gone.push(head.userid);
  }
  return out;
}

/** The whole cache as the report reads it (every person, any status). */
export async function cacheInput(db: FieldbookDb): Promise<{ input: ReportInput; catalog: Catalog }> {
  const [
    people,
    memberships,
    assignments,
    training,
    sites,
    categories,
    groups,
    credentials,
    courses,
    requirements,
  ] = await Promise.all([
    db.users.toArray(),
    db.groupMembers.toArray(),
    db.credentialAssignments.toArray(),
    db.trainingAssignments.toArray(),
    db.sites.toArray(),
    db.profileCategories.toArray(),
    db.groups.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
    db.requirements.toArray(),
  ]);
  const input = {
    people,
    memberships,
    assignments,
    training,
    categories,
    groups,
    credentials,
    courses,
    requirements,
  };
  return { input, catalog: catalogOf({ sites, categories, groups, credentials, courses }) };
}

async function latestShared(db: FieldbookDb, kind: HistorySharedRow['kind']): Promise<string | null> {
  const rows = await db.historyShared.orderBy('id').reverse().toArray();
  return rows.find((r) => r.kind === kind)?.value ?? null;
}

async function saveShared(db: FieldbookDb, seq: number, kind: HistorySharedRow['kind'], value: unknown) {
  const text = JSON.stringify(value);
  if ((await latestShared(db, kind)) !== text) await db.historyShared.add({ seq, kind, value: text });
}

/** Takes the snapshot of a completed sync that ended `at`, counted for the local day `day`. */
export async function snapshotHistory(db: FieldbookDb, at: string, day: string): Promise<void> {
  const { input, catalog } = await cacheInput(db);
  const facts = factsOf(input);
  const findings = findingsByPerson(input, day);
  const held = new Set(catalog.s.map(([siteid]) => siteid));
  const figures = dayFigures(input, day, held, findings);
  const requirements = [...input.requirements].sort((a, b) => a.id.localeCompare(b.id));
  const tables = [db.historySyncs, db.historyPeople, db.historyHeads, db.historyShared];
  await db.transaction('rw', tables, async () => {
    const seq = (await db.historySyncs.add({ at, day, figures }))!;
    const changes = peopleChanges(await db.historyHeads.toArray(), facts, findings, held);
    await db.historyPeople.bulkAdd(changes.rows.map((row) => ({ ...row, seq })));
    await db.historyHeads.bulkPut(changes.put);
    await db.historyHeads.bulkDelete(changes.gone);
    await saveShared(db, seq, 'catalog', catalog);
    await saveShared(db, seq, 'requirements', requirements);
  });
}
