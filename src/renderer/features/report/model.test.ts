import { describe, expect, it } from 'vitest';
import type { CredentialRecord, GroupRecord } from '../../../shared/records.ts';
import { credentialAssignment, trainingAssignment, user } from '../../testing/fixtures.ts';
import { buildReport, type ReportInput } from './model.ts';

const cred = (credentialid: number, credentialname: string) => ({ credentialid, credentialname }) as CredentialRecord;
const group = (groupid: number, groupname: string) => ({ groupid, groupname, siteid: 1 }) as GroupRecord;
const member = (groupid: number, userid: number) => ({ id: `${groupid}-${userid}`, groupid, userid });

const today = '2026-03-01';
const input: ReportInput = {
  today,
  people: [user(1, { firstname: 'Ann', lastname: 'Lee' }), user(2, { firstname: 'Bo', lastname: 'Ray' }), user(3, { firstname: 'Cy', lastname: 'Oak' })],
  memberships: [member(10, 1), member(10, 2)],
  groups: [group(10, 'Drivers')],
  credentials: [cred(1, 'First Aid'), cred(2, 'Forklift'), cred(3, 'CPR')],
  assignments: [
    credentialAssignment(1, 1, '02/01/2026'), // expired
    credentialAssignment(2, 1, '03/20/2026'), // within 30
    credentialAssignment(3, 2, '04/20/2026'), // within 60
    credentialAssignment(1, 3, '05/25/2026'), // within 90
    credentialAssignment(2, 3, '12/31/2030'), // fine
  ],
  training: [
    trainingAssignment(7, 1, 5, '2026-02-15', { course_name: 'Safety' }), // overdue
    trainingAssignment(8, 2, 5, '2026-03-10', { course_name: 'Safety' }), // due soon
    trainingAssignment(9, 3, 5, '2026-01-01', { course_name: 'Safety', course_status: 'Completed' }), // done
  ],
};

describe('the compliance report', () => {
  const report = buildReport(input);

  it('buckets credentials into expired and expiring within 30, 60 and 90 days', () => {
    expect(report.overall).toMatchObject({ people: 3, Expired: 1, 'Expires within 30 days': 1, 'Expires within 60 days': 1, 'Expires within 90 days': 1 });
  });

  it('lists what a person lacks that others in their group hold', () => {
    const missing = report.lines.filter((l) => l.issue === 'Missing').map((l) => `${l.person}: ${l.item}`);
    expect(missing).toEqual(['Lee, Ann: CPR', 'Ray, Bo: First Aid', 'Ray, Bo: Forklift']);
  });

  it('counts training overdue and due soon, never completed training', () => {
    expect(report.overall).toMatchObject({ 'Training overdue': 1, 'Training due soon': 1 });
  });

  it('totals each group, people without a group under their own heading', () => {
    expect(report.totals.map((t) => [t.group, t.people, t.Expired, t.Missing])).toEqual([
      ['Drivers', 2, 1, 3],
      ['(no group)', 1, 0, 0],
    ]);
  });
});
