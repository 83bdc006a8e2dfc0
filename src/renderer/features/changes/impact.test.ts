import { describe, expect, it } from 'vitest';
import type { CourseRecord, CredentialRecord } from '../../../shared/records.ts';
import { credentialAssignment, trainingAssignment, user } from '../../testing/fixtures.ts';
import { requirementRow } from '../requirements/model.ts';
import { complianceImpact, foldRemovals, type ImpactRecords } from './impact.ts';
import type { DatedChange } from './view-model.ts';

const FIRST_AID = 5;
const INDUCTION = 7;
const sinceDay = '2026-02-15';
const today = '2026-03-01';
const at = '2026-03-01T08:00:00Z';
const options = { sinceDay, today, statuses: ['Active'] };

const chris = user(1, { firstname: 'Christopher', lastname: 'Young', siteid: 101 });
const dana = user(2, { firstname: 'Dana', lastname: 'Ames', siteid: 101 });

/** The site 101 requires First Aid Level 2 of everyone; the cache as it is after the sync. */
function records(fields: Partial<ImpactRecords> = {}): ImpactRecords {
  return {
    people: [chris, dana],
    memberships: [],
    assignments: [credentialAssignment(FIRST_AID, 2, '01/01/2028')],
    training: [],
    requirements: [
      requirementRow({ kind: 'site', siteid: 101 }, { kind: 'credential', credentialid: FIRST_AID }),
    ],
    credentials: [{ credentialid: FIRST_AID, credentialname: 'First Aid Level 2' } as CredentialRecord],
    courses: [{ courseid: INDUCTION, siteid: 101, coursename: 'Induction' } as CourseRecord],
    ...fields,
  };
}

const change = (c: Omit<DatedChange, 'at'>): DatedChange => ({ ...c, at });
const names = (list: { firstname: string }[]) => list.map((e) => e.firstname);

describe('what the changes since the last sync mean for compliance', () => {
  it('reports a holder of a required credential whose credential was removed as newly non-compliant, naming it', () => {
    const removed = change({ k: 'credential.removed', u: 1, d: `credential ${FIRST_AID}`, e: '2027-06-30' });
    const impact = complianceImpact([removed], records(), options);
    expect(names(impact.nonCompliant)).toEqual(['Christopher']);
    expect(impact.nonCompliant[0]!.findings).toEqual([
      expect.objectContaining({ type: 'Missing', item: 'First Aid Level 2' }),
    ]);
    expect(impact.compliant).toEqual([]);
  });

  it('does not report a removal that changes nothing: the credential had already expired', () => {
    const removed = change({ k: 'credential.removed', u: 1, d: `credential ${FIRST_AID}`, e: '2026-01-31' });
    expect(complianceImpact([removed], records(), options).nonCompliant).toEqual([]);
  });

  it('reports a required credential that expired since the last sync', () => {
    const held = records({ assignments: [credentialAssignment(FIRST_AID, 1, '02/20/2026')] });
    const expired = change({ k: 'credential.expired', u: 1, d: `credential ${FIRST_AID} on 2026-02-20` });
    const impact = complianceImpact([expired], { ...held, people: [chris] }, options);
    expect(impact.nonCompliant[0]!.findings.map((f) => f.type)).toEqual(['Expired']);
  });

  it('reports a renewal of an expired credential as compliant again, with what they missed', () => {
    const held = records({
      people: [chris],
      assignments: [credentialAssignment(FIRST_AID, 1, '02/01/2027')],
    });
    const renewed = change({
      k: 'credential.renewed',
      u: 1,
      d: `credential ${FIRST_AID}: 2026-02-01 → 2027-02-01`,
    });
    const impact = complianceImpact([renewed], held, options);
    expect(names(impact.compliant)).toEqual(['Christopher']);
    expect(impact.compliant[0]!.findings.map((f) => f.type)).toEqual(['Expired']);
    expect(impact.nonCompliant).toEqual([]);
  });

  it('reports a person moved to a site with a requirement they do not meet', () => {
    const moved = change({ k: 'person.site', u: 1, d: '202 → 101' });
    expect(names(complianceImpact([moved], records(), options).nonCompliant)).toEqual(['Christopher']);
  });

  it('marks a new person who lacks a requirement as new', () => {
    const impact = complianceImpact([change({ k: 'person.added', u: 1 })], records(), options);
    expect(impact.nonCompliant.map((e) => [e.firstname, e.isNew])).toEqual([['Christopher', true]]);
  });

  it('leaves out people of other statuses: someone made inactive is not "compliant again"', () => {
    const inactive = records({ people: [{ ...chris, status: 'Inactive' }] });
    const impact = complianceImpact(
      [change({ k: 'person.status', u: 1, d: 'Active → Inactive' })],
      inactive,
      options,
    );
    expect(impact).toEqual({ nonCompliant: [], compliant: [] });
  });

  it('reports required training removed since, and training completed since', () => {
    const course = requirementRow({ kind: 'site', siteid: 101 }, { kind: 'course', courseid: INDUCTION });
    const base = records({ people: [dana], requirements: [course], assignments: [] });
    const removed = change({ k: 'training.removed', u: 2, d: `course ${INDUCTION}`, e: '2026-12-01' });
    expect(names(complianceImpact([removed], base, options).nonCompliant)).toEqual(['Dana']);
    const done = trainingAssignment(9, 2, INDUCTION, '2026-02-01', {
      course_name: 'Induction',
      course_status: 'Completed',
    });
    const completed = change({ k: 'training.completed', u: 2, d: 'Induction' });
    expect(names(complianceImpact([completed], { ...base, training: [done] }, options).compliant)).toEqual([
      'Dana',
    ]);
  });
});

describe('a removed person’s records', () => {
  it('fold under their removal: one change, counting the credentials and training that went with them', () => {
    const gone = [
      change({ k: 'person.removed', u: 9, d: 'Eli Park', s: 101 }),
      ...[1, 2, 3, 4, 5].map((id) => change({ k: 'credential.removed', u: 9, d: `credential ${id}` })),
      change({ k: 'training.removed', u: 9, d: 'course 1' }),
      change({ k: 'training.removed', u: 9, d: 'course 2' }),
      change({ k: 'credential.removed', u: 1, d: 'credential 5' }),
    ];
    const { rest, removed } = foldRemovals(gone);
    expect(rest.map((c) => [c.k, c.u])).toEqual([
      ['person.removed', 9],
      ['credential.removed', 1],
    ]);
    expect(removed.get(9)).toEqual({
      userid: 9,
      name: 'Eli Park',
      siteid: 101,
      credentials: 5,
      trainings: 2,
      access: 0,
    });
  });
});
