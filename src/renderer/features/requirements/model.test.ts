import { describe, expect, it } from 'vitest';
import { credentialAssignment, trainingAssignment, user } from '../../testing/fixtures.ts';
import {
  copiedRequirements,
  courseStanding,
  credentialStanding,
  personStandings,
  requiredOf,
  requirementRow,
} from './model.ts';

const today = '2026-03-01';
const driver = { kind: 'group', groupid: 12 } as const;
const lead = { kind: 'group', groupid: 13 } as const;
const forklift = { kind: 'credential', credentialid: 5 } as const;
const firstAid = { kind: 'credential', credentialid: 6 } as const;
const safety = { kind: 'course', courseid: 7 } as const;

describe('who is required what', () => {
  const rows = [
    requirementRow({ kind: 'site', siteid: 1 }, firstAid),
    requirementRow(driver, forklift),
    requirementRow(lead, forklift),
    requirementRow(lead, safety),
    requirementRow({ kind: 'usertype', usertype: 'Supervisor' }, safety),
    requirementRow({ kind: 'site', siteid: 2 }, safety),
  ];

  it('requires of everyone at a site what the site requires, and nothing of another site', () => {
    expect([...requiredOf(user(1), [], rows).keys()]).toEqual(['credential:6']);
  });

  it('requires of a person in two groups what either requires, once, naming both groups', () => {
    const required = requiredOf(user(1), [12, 13], rows);
    expect([...required.keys()].sort()).toEqual(['course:7', 'credential:5', 'credential:6']);
    expect(required.get('credential:5')).toEqual(['group:12', 'group:13']);
  });

  it('requires of a user type what its rule says, at every site', () => {
    expect([...requiredOf(user(1, { usertype: 'Supervisor', siteid: 3 }), [], rows).keys()]).toEqual([
      'course:7',
    ]);
    expect(requiredOf(user(1, { usertype: 'User', siteid: 3 }), [], rows).size).toBe(0);
  });

  it('stores one row for a requirement set twice', () => {
    expect(requirementRow(driver, forklift)).toEqual(requirementRow('group:12', 'credential:5'));
  });
});

describe('where a person stands on a required credential', () => {
  it('is missing when they hold none', () => {
    expect(credentialStanding(5, [credentialAssignment(6, 1, '12/31/2030')], today)).toMatchObject({
      state: 'missing',
      date: '',
    });
  });

  it('is expired when what they hold expired before today', () => {
    expect(credentialStanding(5, [credentialAssignment(5, 1, '02/28/2026')], today)).toMatchObject({
      state: 'expired',
      date: '2026-02-28',
    });
  });

  it('is valid when it expires today or later, or never', () => {
    expect(credentialStanding(5, [credentialAssignment(5, 1, '03/01/2026')], today).state).toBe('valid');
    expect(credentialStanding(5, [credentialAssignment(5, 1, '')], today).state).toBe('valid');
  });

  it('counts the best of two assignments: a renewed one makes it valid', () => {
    const held = [
      credentialAssignment(5, 1, '01/01/2026'),
      credentialAssignment(5, 1, '01/01/2027', { id: 'renewed' }),
    ];
    expect(credentialStanding(5, held, today).state).toBe('valid');
  });
});

describe('where a person stands on a required course', () => {
  it('is missing when never assigned, overdue past its due date, met when completed or not yet due', () => {
    expect(courseStanding(7, [], today).state).toBe('missing');
    expect(courseStanding(7, [trainingAssignment(1, 1, 7, '2026-02-01')], today)).toMatchObject({
      state: 'overdue',
      date: '2026-02-01',
    });
    expect(
      courseStanding(7, [trainingAssignment(1, 1, 7, '2026-02-01', { course_status: 'Completed' })], today)
        .state,
    ).toBe('valid');
    expect(courseStanding(7, [trainingAssignment(1, 1, 7, '2026-04-01')], today).state).toBe('valid');
  });
});

describe('a person standing on all that is required of them', () => {
  it('lists each requirement once with its state', () => {
    const required = requiredOf(
      user(1),
      [12, 13],
      [requirementRow(driver, forklift), requirementRow(lead, forklift), requirementRow(lead, safety)],
    );
    const standings = personStandings(required, [credentialAssignment(5, 1, '01/01/2026')], [], today);
    expect(standings.map((s) => `${s.item.kind}:${s.state}`)).toEqual([
      'credential:expired',
      'course:missing',
    ]);
  });
});

describe('copying requirements from another group', () => {
  it('adds what the other group requires, keeping what this one already has', () => {
    const rows = [
      requirementRow(driver, forklift),
      requirementRow(driver, safety),
      requirementRow(lead, safety),
    ];
    expect(copiedRequirements(rows, 'group:12', 'group:13')).toEqual([requirementRow(lead, forklift)]);
  });
});
