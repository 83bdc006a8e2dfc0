/**
 * The day of an incremental snapshot made a few people at a time (history/day-slices.ts) is the day made at once:
 * the same findings, and the same rows and heads in the same order, on more people than a slice holds.
 */
import { describe, expect, it } from 'vitest';
import { addDaysIso } from '../../shared/dates.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { credentialAssignment, trainingAssignment, user } from '../testing/fixtures.ts';
import { bulkGetInSlices, changesInSlices, findingsInSlices } from './day-slices.ts';
import { EMPTY_CATALOG, factsOf, inputOf } from './facts.ts';
import { findingsByPerson, nextFindingsChange } from './figures.ts';
import { packFact } from './heads.ts';
import { peopleChanges } from './people-changes.ts';
import type { HistoryHeadRow, PersonFact } from './rows.ts';

const DAY = '2026-03-10';
const REQUIREMENTS = [requirementRow('site:1', 'credential:5'), requirementRow('site:2', 'course:7')];

function randomOf(seed: number) {
  let s = seed;
  return (n: number) => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s % n;
  };
}

/** `count` people from `first` on, each with a random site, status, card and course (or none). */
function randomFacts(seed: number, first: number, count: number): Map<number, PersonFact> {
  const int = randomOf(seed);
  const userids = Array.from({ length: count }, (_, i) => first + i);
  const date = () => addDaysIso(DAY, int(90) - 30);
  const people = userids.map((id) =>
    user(id, { siteid: 1 + int(2), status: int(5) ? 'Active' : 'Inactive' }),
  );
  const cards = userids.filter(() => int(4) > 0);
  const courses = userids.filter(() => int(3) > 0);
  return factsOf({
    people,
    memberships: [],
    assignments: cards.map((id) => credentialAssignment(5 + int(2), id, '', { expirationIso: date() })),
    training: courses.map((id) => trainingAssignment(id * 10, id, 7, date())),
  });
}

const findingsOf = (facts: ReadonlyMap<number, PersonFact>, day: string) =>
  findingsByPerson(inputOf(facts, EMPTY_CATALOG, REQUIREMENTS), day);

/** The heads a previous day left: some people the same, some changed, some gone since, some not there yet. */
function headsBefore(seed: number): HistoryHeadRow[] {
  const before = new Map([...randomFacts(seed, 1, 150), ...randomFacts(seed + 1, 40, 40)]);
  const dayBefore = addDaysIso(DAY, -1);
  const findings = findingsOf(before, dayBefore);
  return [...before].map(([userid, fact]) => {
    const next = nextFindingsChange(fact, dayBefore);
    return { userid, fact: packFact(fact), findings: findings.get(userid)!, ...(next ? { next } : {}) };
  });
}

describe('the day made a few people at a time', () => {
  it.each([1, 2, 3])('gives the findings of everyone made at once (random people %i)', async (seed) => {
    const facts = randomFacts(seed, 1, 200);
    expect(await findingsInSlices(facts, REQUIREMENTS, DAY)).toEqual(findingsOf(facts, DAY));
  });

  it.each([1, 2, 3])(
    'gives the rows, heads and people gone of everyone at once, in the same order (random people %i)',
    async (seed) => {
      const facts = new Map([...randomFacts(seed + 10, 20, 100), ...randomFacts(seed, 120, 90)]);
      const heads = headsBefore(seed);
      const findings = findingsOf(facts, DAY);
      const context = { held: new Set([1, 2]), day: DAY };
      const atOnce = peopleChanges(heads, facts, findings, context);
      expect(atOnce.gone.length).toBeGreaterThan(0);
      expect(await changesInSlices(heads, facts, findings, context)).toEqual(atOnce);
    },
  );

  it('reads the same records as one request, in the order asked', async () => {
    const asked: number[][] = [];
    const table = {
      bulkGet: (keys: number[]) => {
        asked.push(keys);
        return Promise.resolve(keys.map((k) => (k % 7 === 0 ? undefined : { k })));
      },
    };
    const keys = Array.from({ length: 600 }, (_, i) => 600 - i);
    const got = await bulkGetInSlices(table, keys);
    expect(got).toEqual(keys.map((k) => (k % 7 === 0 ? undefined : { k })));
    expect(asked.length).toBeGreaterThan(1);
  });
});
