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
import { findingChoices, findingPreset, peopleWithFinding } from './findings.ts';
import { FINDING_TYPES, type ReportInput, type ReportOptions } from './model.ts';

const cred = (credentialid: number, credentialname: string) =>
  ({ credentialid, credentialname }) as CredentialRecord;
const group = (groupid: number, groupname: string) =>
  ({ groupid, groupname, siteid: 1, categoryid: 1 }) as GroupRecord;
const member = (groupid: number, userid: number) => ({ id: `${groupid}-${userid}`, groupid, userid });

const input: ReportInput = {
  people: [
    user(1, { firstname: 'Ann', lastname: 'Lee' }),
    user(2, { firstname: 'Bo', lastname: 'Ray' }),
    user(3, { firstname: 'Cy', lastname: 'Oak' }),
    user(4, { firstname: 'Di', lastname: 'Fox', status: 'Inactive' }),
  ],
  // Ann is a driver and a lead: the report lists her twice, the findings list once
  memberships: [member(10, 1), member(11, 1), member(10, 2), member(10, 4)],
  groups: [group(10, 'Driver'), group(11, 'Lead')],
  categories: [{ categoryid: 1, categoryname: 'Role', siteid: 1 } as ProfileCategoryRecord],
  credentials: [cred(1, 'First Aid'), cred(2, 'Forklift')],
  courses: [{ courseid: 5, coursename: 'Safety' } as CourseRecord],
  assignments: [
    credentialAssignment(1, 1, '03/20/2026'), // Ann: First Aid soon
    credentialAssignment(2, 1, '03/25/2026'), // Ann: Forklift soon
    credentialAssignment(1, 2, '03/10/2026'), // Bo: First Aid soon
    credentialAssignment(2, 3, '02/01/2026'), // Cy: Forklift expired
    credentialAssignment(1, 4, '03/05/2026'), // Di, inactive: not in the report
  ],
  training: [trainingAssignment(7, 3, 5, '2026-02-15', { course_name: 'Safety' })],
  requirements: [requirementRow('group:10', 'course:5')],
};
const options: ReportOptions = {
  today: '2026-03-01',
  soonDays: 30,
  categoryid: 1,
  statuses: ['Active'],
  findingTypes: [...FINDING_TYPES],
};
const report = buildReport(input, options);
const names = (list: { person: string }[]) => list.map((p) => p.person);

describe("the report's findings as lists of people", () => {
  it('list each person once, with every group the report puts them in', () => {
    const soon = peopleWithFinding(report, 'Expires soon', null);
    expect(names(soon)).toEqual(['Lee, Ann', 'Ray, Bo']);
    expect(soon[0]!.groups).toEqual(['Driver', 'Lead']);
    expect(soon[0]!.findings.map((f) => f.item)).toEqual(['First Aid', 'Forklift']);
  });

  it('narrow to one credential or course, with only that finding on the row', () => {
    const forklift = peopleWithFinding(report, 'Expires soon', 'credential:2');
    expect(names(forklift)).toEqual(['Lee, Ann']);
    expect(forklift[0]!.findings.map((f) => f.item)).toEqual(['Forklift']);
    expect(names(peopleWithFinding(report, 'Missing', 'course:5'))).toEqual(['Lee, Ann', 'Ray, Bo']);
  });

  it('offer every finding type the report shows, each number the length of the list it opens', () => {
    const choices = findingChoices(report);
    expect(choices.map((c) => c.type)).toEqual(report.findingTypes);
    for (const choice of choices) {
      expect(choice.people, choice.type).toBe(peopleWithFinding(report, choice.type, null).length);
      for (const item of choice.items)
        expect(item.people, `${choice.type} ${item.item}`).toBe(
          peopleWithFinding(report, choice.type, item.itemKey).length,
        );
    }
    expect(choices.find((c) => c.type === 'Expires soon')!.items.map((i) => [i.item, i.people])).toEqual([
      ['First Aid', 2],
      ['Forklift', 1],
    ]);
  });

  it("count the same people as the report's Findings by type", () => {
    const choices = findingChoices(report);
    expect(report.findingsByType.map((f) => [f.type, f.people])).toEqual(
      choices.map((c) => [c.type, c.people]),
    );
  });

  it('leave out the finding types the coordinator unticked, and the people of other statuses', () => {
    const narrowed = buildReport(input, { ...options, findingTypes: ['Expired'], statuses: ['Inactive'] });
    expect(findingChoices(narrowed)).toEqual([{ type: 'Expired', people: 0, items: [] }]);
    expect(peopleWithFinding(narrowed, 'Expires soon', null)).toEqual([]);
  });
});

describe('the bulk action a findings list starts on', () => {
  it("renews or assigns a credential, and sets a course's due date", () => {
    expect(findingPreset('Expires soon', 'credential:2')).toEqual({ type: 'credential', choice: 2 });
    expect(findingPreset('Missing', 'credential:1')).toEqual({ type: 'credential', choice: 1 });
    expect(findingPreset('Training overdue', 'course:5')).toEqual({ type: 'training', choice: 5 });
    expect(findingPreset('Missing', 'course:5')).toEqual({ type: 'training', choice: 5 });
  });

  it('leaves the item to choose when the list has several, and the action too when credentials and courses are mixed', () => {
    expect(findingPreset('Expired', null)).toEqual({ type: 'credential' });
    expect(findingPreset('Training due soon', null)).toEqual({ type: 'training' });
    expect(findingPreset('Missing', null)).toBeUndefined();
    expect(findingPreset('Expired', 'nonsense')).toBeUndefined();
  });
});
