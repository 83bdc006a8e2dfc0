/**
 * The history's figures and findings are added up person by person; these compare them, on random caches, with
 * the report itself built for each scope (features/report/build.ts), which is what they must equal.
 */
import { describe, expect, it } from 'vitest';
import { buildReport } from '../features/report/build.ts';
import type { ReportInput } from '../features/report/model.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { credentialAssignment, trainingAssignment, user } from '../testing/fixtures.ts';
import { addDaysIso } from '../../shared/dates.ts';
import {
  adjustFigures,
  dayFigures,
  findingKey,
  findingsByPerson,
  findingOfKey,
  historyOptions,
  nextFindingsChange,
  scopesOf,
} from './figures.ts';
import { EMPTY_CATALOG, factsOf, inputOf } from './facts.ts';
import type { PersonFact } from './rows.ts';
import { FINDING_TYPES } from '../features/report/finding-types.ts';

const TODAY = '2026-03-10';

/** A small deterministic random source (the same cache on every run). */
function randomOf(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

function randomCache(seed: number): ReportInput {
  const r = randomOf(seed);
  const people = Array.from({ length: 60 }, (_, i) =>
    user(i + 1, {
      siteid: 1 + r.int(3),
      status: r.pick(['Active', 'Inactive', ' active ']),
      usertype: r.pick(['User', 'Driver']),
    }),
  );
  const date = () => (r.int(5) === 0 ? '' : addDaysIso(TODAY, r.int(90) - 45));
  return {
    people,
    memberships: people.flatMap((p) =>
      [10, 11, 12]
        .filter(() => r.int(2) === 0)
        .map((groupid) => ({ id: `${groupid}-${p.userid}`, groupid, userid: p.userid })),
    ),
    assignments: people.flatMap((p) =>
      [5, 6]
        .filter(() => r.int(3) > 0)
        .map((k) => credentialAssignment(k, p.userid, '', { expirationIso: date() })),
    ),
    training: people.flatMap((p) =>
      [7, 8]
        .filter(() => r.int(2) === 0)
        .map((k) =>
          trainingAssignment(p.userid * 10 + k, p.userid, k, date(), {
            course_status: r.pick(['Completed', 'Not started', 'In progress']),
          }),
        ),
    ),
    requirements: [
      requirementRow('site:1', 'credential:5'),
      requirementRow('group:11', 'course:7'),
      requirementRow('usertype:Driver', 'credential:6'),
      requirementRow('site:9', 'credential:5'),
    ].slice(0, r.int(5)),
    groups: [10, 11, 12].map((groupid) => ({
      groupid,
      siteid: 1,
      categoryid: 1,
      groupname: `G${groupid}`,
      usercount: 0,
      accessusercount: 0,
    })),
    categories: [],
    credentials: [],
    courses: [],
  };
}

/** A scope's figures as the report of its people counts them. */
function reportFigures(input: ReportInput, scope: string) {
  const [kind, value] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  const members = new Set(input.memberships.filter((m) => `${m.groupid}` === value).map((m) => m.userid));
  const people = input.people.filter((p) =>
    kind === 'site'
      ? `${p.siteid}` === value
      : kind === 'usertype'
        ? p.usertype === value
        : members.has(p.userid),
  );
  const report = buildReport({ ...input, people }, historyOptions(TODAY));
  const findings = Object.fromEntries(
    report.findingsByType.filter((f) => f.findings > 0).map((f) => [f.type, f.findings]),
  );
  return { scope, people: report.people, compliant: report.compliant, findings };
}

describe("the history's figures, added up person by person", () => {
  it.each(Array.from({ length: 25 }, (_, i) => i + 1))(
    'equal the report of each scope (random cache %i)',
    (seed) => {
      const input = randomCache(seed);
      const held = new Set([1, 2, 3]);
      const expected = scopesOf(input, held).map((scope) => reportFigures(input, scope));
      expect(dayFigures(input, TODAY, held)).toEqual(expected);
    },
  );

  it.each(Array.from({ length: 10 }, (_, i) => i + 1))(
    "give each person the report's findings (random cache %i)",
    (seed) => {
      const input = randomCache(seed);
      const statuses = [...new Set(input.people.map((p) => p.status))];
      const report = buildReport(input, historyOptions(TODAY, statuses));
      const expected = new Map(
        report.sections.flatMap((s) =>
          s.rows.map((row) => [row.userid, row.findings.map(findingKey).sort()]),
        ),
      );
      expect(findingsByPerson(input, TODAY)).toEqual(expected);
    },
  );
});

/** A person's findings on any day, from their fact alone: the report's own computation. */
function findingsOnDay(userid: number, fact: PersonFact, requirements: ReportInput['requirements']) {
  const input = inputOf(new Map([[userid, fact]]), EMPTY_CATALOG, requirements);
  return (day: string) => findingsByPerson(input, day).get(userid)!;
}

/** The first day after TODAY, up to 200 days on, on which the person's findings differ from TODAY's: day by day. */
function firstChange(on: (day: string) => string[]): string | undefined {
  const today = on(TODAY).join();
  for (let i = 1; i <= 200; i += 1)
    if (on(addDaysIso(TODAY, i)).join() !== today) return addDaysIso(TODAY, i);
  return undefined;
}

/**
 * A random person with several assignments of the same credentials (some never expiring, some without a date) and
 * of the same courses (open or completed), and random requirements: what makes a day change their findings or not.
 */
function randomPerson(seed: number): { fact: PersonFact; requirements: ReportInput['requirements'] } {
  const r = randomOf(seed);
  const date = () => (r.int(6) === 0 ? '' : addDaysIso(TODAY, r.int(120) - 60));
  const fact: PersonFact = {
    u: [1 + r.int(2), 'ann', 'Ann', 'Lee', '', r.pick(['Active', 'Inactive']), r.pick(['User', 'Driver'])],
    g: [10, 11].filter(() => r.int(2) === 0),
    c: Array.from({ length: r.int(5) }, (_, i) => [`${i}`, r.pick([5, 6]), '', date()]),
    t: Array.from({ length: r.int(5) }, (_, i) => [
      i,
      r.pick([7, 8]),
      '',
      r.pick(['Completed', ' completed ', 'Not started', 'In progress']),
      date(),
    ]),
  };
  const requirements = [
    requirementRow('site:1', 'credential:5'),
    requirementRow('group:11', 'course:7'),
    requirementRow('usertype:Driver', 'credential:6'),
    requirementRow('site:2', 'course:8'),
  ].filter(() => r.int(2) === 0);
  return { fact, requirements };
}

const PERSON: PersonFact['u'] = [1, 'ann', 'Ann', 'Lee', '', 'Active', 'User'];

describe('the next day a person is looked at for a change with the date alone', () => {
  it.each(Array.from({ length: 8 }, (_, i) => i + 1))(
    'is the first day their findings change, tried day by day (random cache %i)',
    (seed) => {
      const input = randomCache(seed);
      for (const [userid, fact] of factsOf(input)) {
        const on = findingsOnDay(userid, fact, input.requirements);
        expect(nextFindingsChange(fact, TODAY), `person ${userid}`).toBe(firstChange(on));
      }
    },
  );

  it('is the first day their findings change, for people holding the same credential or course several times', () => {
    for (let seed = 1; seed <= 300; seed += 1) {
      const { fact, requirements } = randomPerson(seed);
      const on = findingsOnDay(1, fact, requirements);
      expect(nextFindingsChange(fact, TODAY), `person ${seed}: ${JSON.stringify(fact)}`).toBe(
        firstChange(on),
      );
    }
  });

  it('is the day an expiry comes within the "soon" window, not the day before', () => {
    const fact: PersonFact = { u: PERSON, g: [], c: [['5-1', 5, '', '2026-05-01']], t: [] };
    expect(nextFindingsChange(fact, TODAY)).toBe('2026-04-01');
  });

  it('follows the latest expiry of a credential held twice, not the older card', () => {
    const c: PersonFact['c'] = [
      ['5-1', 5, '', '2026-03-20'],
      ['5-2', 5, '', '2026-12-31'],
    ];
    expect(nextFindingsChange({ u: PERSON, g: [], c, t: [] }, TODAY)).toBe('2026-12-01');
  });

  it('never comes for a credential one of whose cards never expires', () => {
    const c: PersonFact['c'] = [
      ['5-1', 5, '', '2026-03-20'],
      ['5-2', 5, '', ''],
    ];
    expect(nextFindingsChange({ u: PERSON, g: [], c, t: [] }, TODAY)).toBeUndefined();
  });

  it('never comes for a completed course, whatever its due date', () => {
    const fact: PersonFact = { u: PERSON, g: [], c: [], t: [[17, 7, 'Forklift', 'Completed', '2026-04-20']] };
    expect(nextFindingsChange(fact, TODAY)).toBeUndefined();
  });
});

describe("a finding's key in the history", () => {
  it('is short and gives back the same finding, for every type and both kinds of item', () => {
    const all = FINDING_TYPES.flatMap((type) => [
      { type, itemKey: 'credential:5' },
      { type, itemKey: 'course:1234' },
    ]);
    const keys = all.map(findingKey);
    expect(keys.slice(0, 2)).toEqual(['Mk5', 'Mc1234']);
    expect(new Set(keys).size).toBe(all.length);
    expect(keys.map(findingOfKey)).toEqual(all);
  });

  it('refuses a finding it has no letter for, rather than keeping one that cannot be read back', () => {
    expect(() => findingKey({ type: 'Expired', itemKey: 'group:5' })).toThrow();
    expect(() => findingOfKey('Xk5')).toThrow();
  });

  it("counts a day's figures by the same letters, and refuses a key it cannot read", () => {
    const figures = [{ scope: 'site:1', people: 1, compliant: 1, findings: {} }];
    const fact: PersonFact = { u: [1, 'ann', 'Ann', 'Lée', '', 'Active', 'User'], g: [], c: [], t: [] };
    const moved = adjustFigures(figures, [{ fact, findings: [] }], [{ fact, findings: ['Ek5', 'Dc7'] }]);
    expect(moved).toEqual([
      { scope: 'site:1', people: 1, compliant: 0, findings: { Expired: 1, 'Training due soon': 1 } },
    ]);
    expect(() => adjustFigures(figures, [], [{ fact, findings: ['Eg5'] }])).toThrow('Not a finding');
  });
});
