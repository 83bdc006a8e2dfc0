/**
 * A page fingerprint vouches that the cache holds what this build makes of a
 * page (FINGERPRINT_VERSION). Fixed wire pages, one per list kind and written
 * in the many forms the platform sends (ids as text, links as a list, `false`
 * for empty text, dates in several formats), are read, normalised and hashed
 * as a sync does; the hash of all of it must be the one recorded for the
 * current version. A change to that output without a new version would leave
 * every laptop's cache with records an older build made, never made again.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SchemaName } from '../../shared/api/wire.ts';
import { FINGERPRINT_GOLDEN, FINGERPRINT_VERSION } from '../../shared/page-fingerprints.ts';
import { parseRecords } from '../api/field-length.ts';
import { itemHash, rawItemKeys, recordKeyOfItemKey } from './page-keys.ts';
import { emailsListedOf, itemKey, makeTask, TASK_KINDS, toRecords } from './tasks.ts';

const links = [
  { self: 'https://api.example.invalid/x/1' },
  { users: 'https://api.example.invalid/x/1/users' },
];

/** One page per wire schema: lenient forms on purpose (the normalisers decide what they become). */
const PAGES: Record<SchemaName, unknown[]> = {
  site: [
    { siteid: 7, sitename: 'North Plant', loginpage: 'https://north.example.invalid', links },
    { siteid: '8', sitename: 12, links: { self: 'https://api.example.invalid/sites/8' }, region: 'East' },
  ],
  user: [
    {
      userid: 101,
      siteid: 7,
      username: 'ana.diaz',
      firstname: 'Ana',
      lastname: 'Díaz',
      employeeid: '00420',
      status: 'Active',
      usertype: 'Employee',
      email: [
        { emailid: 5, email: 'ana@example.invalid', status: 'Active', isprimary: true, link: '' },
        { emailid: '6', email: 'a.diaz@example.invalid', isprimary: 0 },
      ],
      links: { self: 'https://api.example.invalid/users/101' },
    },
    { userid: '102', siteid: '7', username: 'bo', firstname: 'Bo', lastname: false, status: 'Terminated' },
    {
      userid: 103,
      siteid: 8,
      username: 'zoe',
      firstname: 'Zoë',
      lastname: 'Ñandú',
      status: 'Inactive',
      email: ['zoe@example.invalid'],
      hiredate: '2019-04-01',
    },
  ],
  groupMember: [
    { userid: 101, username: 'ana.diaz', firstname: 'Ana', lastname: 'Díaz', employeeid: '00420', links },
    { userid: '102' },
  ],
  email: [{ emailid: 5, email: 'ana@example.invalid', status: 'Active', isprimary: true, link: '' }],
  profileCategory: [
    { categoryid: 2, siteid: 7, categoryname: 'Department', groupcount: '3', links },
    { categoryid: '4', siteid: 7, categoryname: false },
  ],
  group: [
    { groupid: 11, siteid: 7, categoryid: 2, groupname: 'Welders', usercount: 4, accessusercount: 1, links },
    { groupid: '12', groupname: null, usercount: '0' },
  ],
  module: [
    {
      accessID: 3,
      moduleName: 'Credentials',
      functionName: 'Edit',
      links: { self: 'https://x.invalid/m/3' },
    },
    { accessID: '9', moduleName: 'Training' },
  ],
  credentialCategory: [
    { categoryid: 21, siteid: 7, categoryname: 'Licences', credentialcount: 2, links },
    { categoryid: '22', categoryname: 'Medical' },
  ],
  credential: [
    {
      credentialid: 5,
      credentialname: 'Forklift',
      description: 'Counterbalance trucks',
      categoryid: 21,
      categoryname: 'Licences',
      requiredstartdate: 1,
      requiredexpirationdate: '1',
      requiredcredentialnum: 0,
      requirements: '',
      activeusercount: 12,
      inactiveusercount: 1,
      link: links,
    },
    { credentialid: '6', credentialname: 'First aid', link: { self: 'https://x.invalid/c/6' } },
  ],
  credentialAssignment: [
    {
      credentialid: 5,
      userid: 101,
      firstname: 'Ana',
      lastname: 'Díaz',
      startdate: '2025-01-15',
      expirationdate: '01/15/2027',
      credentialnumber: 'FL-0042',
      status: 'Active',
      attachmentcount: 1,
      notes: '=not a formula',
      link: 'https://api.example.invalid/credentials/5/assignments/5-101',
    },
    {
      credentialid: '5',
      startdate: '',
      expirationdate: '2026-13-40',
      link: '/credentials/5/assignments/5-102',
    },
    { credentialid: 6, userid: '103', expirationdate: '2026-06-30T00:00:00', status: 'Expired' },
  ],
  course: [
    { courseid: 31, siteid: 7, coursename: 'Hot work', coursetype: 1, status: 'Active', links: {} },
    { courseid: '32', coursename: 404 },
  ],
  trainingAssignment: [
    {
      transcriptid: 41,
      userid: 101,
      courseid: 31,
      employeeid: 420,
      firstname: 'Ana',
      lastname: 'Díaz',
      course_name: 'Hot work',
      course_type: 1,
      course_status: 'Active',
      assignment_method: 'Manual',
      start_date: '2026-01-05',
      start_time: '08:00',
      due_date: '03/31/2026',
      due_time: '17:00',
      assignment_created_date: '2025-12-01 10:11:12',
    },
    { transcriptid: '42', userid: '102', courseid: '32', due_date: '' },
  ],
  accessUser: [
    { userid: 101, username: 'ana.diaz', firstname: 'Ana', lastname: 'Díaz', links },
    { userid: '103', username: false },
  ],
};

const SCOPE = { siteid: 7, groupid: 11, categoryid: 21, accessID: 3, credentialid: 5 };

/** What a sync makes of each kind's page: records, e-mails listed, keys and item hashes. */
function normalisedOutput(): unknown[] {
  return TASK_KINDS.map((kind) => {
    const task = makeTask(kind, SCOPE);
    const raw = PAGES[task.schema];
    const parsed = parseRecords(task.schema, raw);
    if (!parsed.success)
      throw new Error(`the fixed ${task.schema} page no longer validates: ${parsed.error.message}`);
    const keys = parsed.data.map((item) => itemKey(task, item));
    return {
      kind,
      records: toRecords(task, parsed.data),
      emailsListed: [...emailsListedOf(task, parsed.data)],
      keys,
      rawKeys: rawItemKeys(task, raw),
      recordKeys: keys.map((key) => recordKeyOfItemKey(task, key)),
      itemHashes: raw.map((item) => itemHash(JSON.stringify(item))),
    };
  });
}

function outputHash(): string {
  return createHash('sha256').update(JSON.stringify(normalisedOutput())).digest('hex').slice(0, 32);
}

describe('the fingerprint version', () => {
  it('is raised whenever what a sync makes of a page changes', () => {
    const hash = outputHash();
    const recorded = FINGERPRINT_GOLDEN[FINGERPRINT_VERSION];
    if (recorded === undefined)
      expect.fail(
        `Record this version's output: add ${FINGERPRINT_VERSION}: '${hash}' to FINGERPRINT_GOLDEN.`,
      );
    const next = FINGERPRINT_VERSION + 1;
    expect(
      hash,
      `What a sync makes of a page changed. Caches hold records an older build made, and their fingerprints ` +
        `would keep them: raise FINGERPRINT_VERSION to ${next} and add ${next}: '${hash}' to FINGERPRINT_GOLDEN ` +
        `(src/shared/page-fingerprints.ts). Never edit a version's recorded hash.`,
    ).toBe(recorded);
  });

  it('is the latest one recorded, and each recorded version stands for its own output', () => {
    const versions = Object.keys(FINGERPRINT_GOLDEN).map(Number);
    expect(Math.max(...versions)).toBe(FINGERPRINT_VERSION);
    expect(new Set(Object.values(FINGERPRINT_GOLDEN)).size).toBe(versions.length);
  });

  it('sees every list kind in its fixed pages', () => {
    const output = normalisedOutput() as { kind: string; keys: unknown[] }[];
    expect(output.filter((page) => page.keys.length === 0)).toEqual([]);
  });
});
