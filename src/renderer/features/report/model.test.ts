import { describe, expect, it } from 'vitest';
import type {
  CourseRecord,
  CredentialRecord,
  GroupRecord,
  ProfileCategoryRecord,
} from '../../../shared/records.ts';
import { credentialAssignment, trainingAssignment, user } from '../../testing/fixtures.ts';
import { requirementRow } from '../requirements/model.ts';
import { buildReport } from './build.ts';
import { FINDING_TYPES, type ReportInput, type ReportOptions } from './model.ts';

const cred = (credentialid: number, credentialname: string) =>
  ({ credentialid, credentialname }) as CredentialRecord;
const group = (groupid: number, groupname: string, categoryid = 1) =>
  ({ groupid, groupname, siteid: 1, categoryid }) as GroupRecord;
const category = (categoryid: number, categoryname: string) =>
  ({ categoryid, categoryname, siteid: 1 }) as ProfileCategoryRecord;
const member = (groupid: number, userid: number) => ({ id: `${groupid}-${userid}`, groupid, userid });

const today = '2026-03-01';
const input: ReportInput = {
  people: [
    user(1, { firstname: 'Ann', lastname: 'Lee' }),
    user(2, { firstname: 'Bo', lastname: 'Ray' }),
    user(3, { firstname: 'Cy', lastname: 'Oak' }),
    user(4, { firstname: 'Di', lastname: 'Fox', status: 'Inactive' }),
  ],
  // Ann drives and leads; Bo drives; Cy is in no role; everyone is on the day shift
  memberships: [
    member(10, 1),
    member(11, 1),
    member(10, 2),
    member(20, 1),
    member(20, 2),
    member(20, 3),
    member(10, 4),
  ],
  groups: [group(10, 'Driver'), group(11, 'Lead'), group(20, 'Day', 2)],
  categories: [category(1, 'Role'), category(2, 'Shift')],
  credentials: [cred(1, 'First Aid'), cred(2, 'Forklift'), cred(3, 'CPR')],
  courses: [{ courseid: 5, coursename: 'Safety' } as CourseRecord],
  assignments: [
    credentialAssignment(1, 1, '02/01/2026'), // Ann: expired
    credentialAssignment(2, 1, '03/20/2026'), // Ann: within 30
    credentialAssignment(3, 2, '04/20/2026'), // Bo: within 60
    credentialAssignment(1, 3, '05/25/2026'), // Cy: within 90
    credentialAssignment(2, 3, '12/31/2030'), // Cy: fine
    credentialAssignment(1, 4, '01/01/2026'), // Di (inactive): expired
  ],
  training: [
    trainingAssignment(7, 1, 5, '2026-02-15', { course_name: 'Safety' }), // overdue
    trainingAssignment(8, 2, 5, '2026-03-10', { course_name: 'Safety' }), // due soon
    trainingAssignment(9, 3, 5, '2026-01-01', { course_name: 'Safety', course_status: 'Completed' }), // done
  ],
  requirements: [],
};
const options: ReportOptions = {
  today,
  soonDays: 30,
  categoryid: 1,
  statuses: ['Active'],
  findingTypes: [...FINDING_TYPES],
};
const findings = (report: ReturnType<typeof buildReport>, person: string) =>
  report.sections
    .flatMap((s) => s.rows)
    .find((r) => r.person === person)!
    .findings.map((f) => `${f.type}: ${f.item}`);

describe('the compliance report without requirements', () => {
  const report = buildReport(input, options);

  it('has no Missing at all: what others in a group hold is not required of anyone', () => {
    expect(report.hasRequirements).toBe(false);
    expect(report.findingTypes).not.toContain('Missing');
    expect(
      report.sections
        .flatMap((s) => s.rows)
        .flatMap((r) => r.findings)
        .filter((f) => f.type === 'Missing'),
    ).toEqual([]);
  });

  it('lists a person once per group of the chosen category, saying which other group they are in', () => {
    expect(report.sections.map((s) => [s.group, s.rows.map((r) => r.person)])).toEqual([
      ['Driver', ['Lee, Ann', 'Ray, Bo']],
      ['Lead', ['Lee, Ann']],
      ['Not in any Role group', ['Oak, Cy']],
    ]);
    expect(report.sections[0]!.rows[0]!.alsoIn).toEqual(['Lead']);
    expect(report.sections[1]!.rows[0]!.alsoIn).toEqual(['Driver']);
  });

  it('counts Active people only by default, each once', () => {
    expect(report.people).toBe(3);
    expect(buildReport(input, { ...options, statuses: ['Active', 'Inactive'] }).people).toBe(4);
  });

  it("lists a person's findings most urgent first: expired, overdue, then what comes soon", () => {
    expect(findings(report, 'Lee, Ann')).toEqual([
      'Expired: First Aid',
      'Training overdue: Safety',
      'Expires soon: Forklift',
    ]);
  });

  it('reads "soon" from the window it is given', () => {
    expect(findings(report, 'Ray, Bo')).toEqual(['Training due soon: Safety']);
    expect(findings(buildReport(input, { ...options, soonDays: 60 }), 'Ray, Bo')).toEqual([
      'Expires soon: CPR',
      'Training due soon: Safety',
    ]);
  });

  it('counts compliant people overall and per group: nothing expired, missing or overdue', () => {
    expect(report.compliant).toBe(2);
    expect(report.sections.map((s) => [s.group, s.compliant, s.rows.length])).toEqual([
      ['Driver', 1, 2],
      ['Lead', 0, 1],
      ['Not in any Role group', 1, 1],
    ]);
  });

  it('shows only the finding types chosen', () => {
    const expiredOnly = buildReport(input, { ...options, findingTypes: ['Expired'] });
    expect(findings(expiredOnly, 'Lee, Ann')).toEqual(['Expired: First Aid']);
    expect(expiredOnly.findingsByType).toEqual([{ type: 'Expired', findings: 1, people: 1 }]);
  });

  it('groups by another category when asked', () => {
    expect(
      buildReport(input, { ...options, categoryid: 2 }).sections.map((s) => [s.group, s.rows.length]),
    ).toEqual([['Day', 3]]);
  });
});

describe('the compliance report with requirements', () => {
  const withRules: ReportInput = {
    ...input,
    requirements: [
      requirementRow({ kind: 'group', groupid: 10 }, { kind: 'credential', credentialid: 3 }), // drivers need CPR
      requirementRow({ kind: 'group', groupid: 11 }, { kind: 'credential', credentialid: 1 }), // leads need First Aid
      requirementRow({ kind: 'site', siteid: 1 }, { kind: 'course', courseid: 5 }), // everyone the Safety course
    ],
  };
  const report = buildReport(withRules, options);

  it('reports as Missing what is required and not held, and an expired required credential as Expired', () => {
    expect(findings(report, 'Lee, Ann')).toEqual([
      'Missing: CPR',
      'Expired: First Aid',
      'Training overdue: Safety',
      'Expires soon: Forklift',
    ]);
    expect(findings(report, 'Ray, Bo')).toEqual(['Training due soon: Safety']);
  });

  it('counts findings by type and names what affects most people', () => {
    expect(report.findingsByType.find((f) => f.type === 'Missing')).toEqual({
      type: 'Missing',
      findings: 1,
      people: 1,
    });
    expect(report.mostAffected[0]).toEqual({ item: 'Safety', people: 2 });
  });

  it('summarises each credential: holders, valid, expiring within 30/60/90 days, expired, missing among those required', () => {
    expect(
      report.byCredential.map((c) => [
        c.credential,
        c.holders,
        c.valid,
        c.within30,
        c.within60,
        c.within90,
        c.expired,
        c.required,
        c.missing,
      ]),
    ).toEqual([
      ['CPR', 1, 1, 0, 1, 0, 0, 2, 1],
      ['First Aid', 2, 1, 0, 0, 1, 1, 1, 0],
      ['Forklift', 2, 2, 1, 0, 0, 0, 0, 0],
    ]);
  });
});
