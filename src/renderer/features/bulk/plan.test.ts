import { describe, expect, it } from 'vitest';
import type { CredentialRecord, UserRecord } from '../../../shared/records.ts';
import { previewBulk, type BulkContext } from './plan.ts';

const person = (userid: number, status = 'Active'): UserRecord => ({
  userid, siteid: 101, username: `u${userid}`, firstname: 'F', lastname: `L${userid}`, employeeid: '', status, usertype: 'User', searchKeys: [], sortName: '',
});
const ctx: BulkContext = { access: 'full', groupAccess: new Set(['5-2']), moduleAccess: new Set(), credentialsHeld: new Set(['9-3']), trainingHeld: new Set() };
const firstAid: CredentialRecord = {
  credentialid: 9, credentialname: 'First Aid', description: '', categoryid: 1, categoryname: '', requiredstartdate: true, requiredexpirationdate: true,
  requiredcredentialnum: false, requirements: '', activeusercount: 0, inactiveusercount: 0,
};

describe('the preview of a bulk action', () => {
  it('queues a status change for each user not already in that status, with the base it was made from', () => {
    const preview = previewBulk([person(1), person(2, 'Inactive')], { type: 'status', status: 'Inactive' }, ctx);
    expect(preview.drafts).toHaveLength(1);
    expect(preview.drafts[0]).toMatchObject({ op: { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }, base: { status: 'Active' } });
    expect(preview.noops.map((n) => n.user.userid)).toEqual([2]);
  });

  it('queues nothing with a read-only token and says why', () => {
    const preview = previewBulk([person(1)], { type: 'status', status: 'Inactive' }, { ...ctx, access: 'readonly' });
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('read-only');
  });

  it('refuses a status change with a token limited to one feature, saying it does not reach people', () => {
    const preview = previewBulk([person(1)], { type: 'status', status: 'Inactive' }, { ...ctx, access: 'feature' });
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('does not include people');
  });

  it('lets a token limited to one feature grant a feature', () => {
    const preview = previewBulk([person(1)], { type: 'moduleAccess', grant: true, accessID: 3, moduleName: 'Safety' }, { ...ctx, access: 'feature' });
    expect(preview.drafts.map((d) => d.op.kind)).toEqual(['moduleAccess.grant']);
  });

  it('refuses a credential assignment missing a date the credential requires', () => {
    const preview = previewBulk([person(1)], { type: 'credential', credential: firstAid, startdate: '2026-01-01', expirationdate: '', credentialnumber: '', notes: '' }, ctx);
    expect(preview.drafts).toEqual([]);
    expect(preview.refused[0]?.reason).toContain('requires an expiration date');
  });

  it('assigns a credential with its dates, skipping those who already hold it', () => {
    const preview = previewBulk([person(1), person(3)], { type: 'credential', credential: firstAid, startdate: '2026-01-01', expirationdate: '2028-01-01', credentialnumber: '', notes: '' }, ctx);
    expect(preview.drafts[0]?.op).toEqual({ kind: 'credentialAssignment.create', credentialid: 9, userid: 1, fields: { startdate: '2026-01-01', expirationdate: '2028-01-01' } });
    expect(preview.noops[0]?.reason).toContain('already holds');
  });

  it('grants group access only to those who lack it', () => {
    const group = { groupid: 5, siteid: 101, categoryid: 1, groupname: 'Crew A', usercount: 0, accessusercount: 0 };
    const preview = previewBulk([person(1), person(2)], { type: 'groupAccess', grant: true, group }, ctx);
    expect(preview.drafts.map((d) => d.op)).toEqual([{ kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 }]);
  });

  it('refuses a group of another site', () => {
    const group = { groupid: 6, siteid: 102, categoryid: 1, groupname: 'Other', usercount: 0, accessusercount: 0 };
    expect(previewBulk([person(1)], { type: 'groupAccess', grant: true, group }, ctx).refused).toHaveLength(1);
  });
});
