/**
 * The day of an incremental snapshot made a few people at a time, the event loop run between (shared/sliced.ts):
 * on `l` a day looks at some 2,800 people, whose findings and changes were tasks of 30 to 250 ms in the window,
 * run after the sync said it was done, while the coordinator may be working. A person's findings and change
 * depend on their own fact and head only, so the slices give the same findings and the same rows, in the same
 * order, as one computation over everyone (snapshot.test.ts compares the day with a full snapshot's).
 */
import type { RequirementRow } from '../features/requirements/model.ts';
import { forEachSliced } from '../../shared/sliced.ts';
import { yieldToEventLoop } from '../../shared/yield.ts';
import { EMPTY_CATALOG, inputOf } from './facts.ts';
import { findingsByPerson } from './figures.ts';
import type { HistoryHeadRow, PersonFact } from './rows.ts';
import { peopleChanges, type ChangesContext, type PeopleChanges } from './people-changes.ts';

/** People a slice works through before the clock is read: some 2 ms of findings or changes on `l`. */
const PEOPLE_A_PART = 32;

/** The facts in parts of PEOPLE_A_PART people, in their order. */
function partsOf(facts: ReadonlyMap<number, PersonFact>): Map<number, PersonFact>[] {
  const parts: Map<number, PersonFact>[] = [];
  for (const entry of facts) {
    const last = parts.at(-1);
    if (last && last.size < PEOPLE_A_PART) last.set(...entry);
    else parts.push(new Map([entry]));
  }
  return parts;
}

/** Each person's findings on `day` (as `findingsByPerson` of them all), a few people at a time. */
export async function findingsInSlices(
  facts: ReadonlyMap<number, PersonFact>,
  requirements: readonly RequirementRow[],
  day: string,
): Promise<Map<number, readonly string[]>> {
  const out = new Map<number, readonly string[]>();
  const parts = partsOf(facts);
  await forEachSliced(parts.length, (i) => {
    const input = inputOf(parts[i]!, EMPTY_CATALOG, requirements);
    for (const [userid, findings] of findingsByPerson(input, day)) out.set(userid, findings);
  });
  return out;
}

/** `peopleChanges` of the people looked at, a few at a time: the same rows, heads put and people gone, in order. */
export async function changesInSlices(
  heads: readonly HistoryHeadRow[],
  facts: ReadonlyMap<number, PersonFact>,
  findings: ReadonlyMap<number, readonly string[]>,
  context: ChangesContext,
): Promise<PeopleChanges> {
  const byUser = new Map(heads.map((h) => [h.userid, h]));
  const out: PeopleChanges = { rows: [], put: [], gone: [] };
  const parts = partsOf(facts);
  await forEachSliced(parts.length, (i) => {
    const part = parts[i]!;
    const partHeads = [...part.keys()].flatMap((userid) => byUser.get(userid) ?? []);
    const { rows, put } = peopleChanges(partHeads, part, findings, context);
    out.rows.push(...rows);
    out.put.push(...put);
  });
  const gone = peopleChanges(
    heads.filter((h) => !facts.has(h.userid)),
    new Map(),
    findings,
    context,
  );
  out.rows.push(...gone.rows);
  out.gone.push(...gone.gone);
  return out;
}

/** Keys asked for in one request: Dexie makes each key's request in the task that asks (some 20 µs each). */
const KEYS_A_REQUEST = 256;

/** `bulkGet` of many keys, asked a few hundred at a time with the event loop run between: the same records. */
export async function bulkGetInSlices<T, K>(
  table: { bulkGet(keys: K[]): PromiseLike<(T | undefined)[]> },
  keys: readonly K[],
): Promise<(T | undefined)[]> {
  const asked: PromiseLike<(T | undefined)[]>[] = [];
  for (let at = 0; at < keys.length; at += KEYS_A_REQUEST) {
    if (at > 0) await yieldToEventLoop();
    asked.push(table.bulkGet(keys.slice(at, at + KEYS_A_REQUEST)));
  }
  return (await Promise.all(asked)).flat();
}
