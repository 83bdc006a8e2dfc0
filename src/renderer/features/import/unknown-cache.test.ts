/** Never create against a cache that has not read everyone at the kept sites. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, type RowValues } from './match.ts';
import { unknownCacheReason } from './unknown-cache.ts';

const ann: UserRecord = {
  userid: 7,
  siteid: 101,
  username: 'ann.lee',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E7',
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
};
const NO_EMAILS = emailsByUser([]);
const DONE = '2026-11-28T10:00:00.000Z';
const NORTH = { siteid: 101, sitename: 'North Plant' };
const SOUTH = { siteid: 102, sitename: 'South Yard' };

const plan = (rows: RowValues[], cached: UserRecord[], unknownCache: string | null) =>
  planImport(
    rows.map((values, i) => ({ rowNumber: i + 2, values })),
    cached,
    101,
    NO_EMAILS,
    { key: 'username', mode: 'upsert', unknownCache },
  );

describe('whether the cache knows who is on the site', () => {
  it('does not before any sync', () => {
    expect(unknownCacheReason([], false, [])).toBe(
      'This laptop has not synced yet, so it does not know who is already on the site',
    );
  });

  it('does not after a first sync cut short before the people were all read, even when other lists completed', () => {
    const rows = [
      { collection: 'sites' as const, lastSyncedAt: DONE },
      { collection: 'users' as const, lastSyncedAt: null },
    ];
    expect(unknownCacheReason(rows, false, [NORTH])).toContain(
      'The first sync of this laptop stopped before it had read everyone on the site',
    );
  });

  it('does not while the first sync is still reading', () => {
    expect(unknownCacheReason([], true, [])).toBe(
      'The first sync of this laptop is still reading who is on the site',
    );
  });

  it('does once a sync has read everyone, and a later sync running or cut short does not change that', () => {
    const rows = [{ collection: 'users' as const, lastSyncedAt: DONE, sitesRead: [101] }];
    expect(unknownCacheReason(rows, false, [NORTH])).toBeNull();
    expect(unknownCacheReason(rows, true, [NORTH])).toBeNull();
  });

  it('does not at a site kept since, whose first sync stopped before its people were read: the site is named', () => {
    const rows = [{ collection: 'users' as const, lastSyncedAt: DONE, sitesRead: [101] }];
    expect(unknownCacheReason(rows, false, [NORTH, SOUTH])).toBe(
      'The last sync stopped before it had read everyone at South Yard, so this laptop does not know who is already there',
    );
    expect(unknownCacheReason(rows, true, [NORTH, SOUTH])).toBe(
      'The sync is still reading who is at South Yard',
    );
  });
});

describe('an import against a cache that does not know who is on the site', () => {
  const reason = unknownCacheReason([], false, []);

  it('plans no create for a person the file names (they may be on the site already), and says why', () => {
    const [row] = plan(
      [{ username: 'bo.ray', firstname: 'Bo', lastname: 'Ray', employeeid: 'E8' }],
      [],
      reason,
    );
    expect(row).toMatchObject({ action: 'skipped' });
    expect(row?.action === 'skipped' && row.reason).toBe(
      'Not created: this laptop has not synced yet, so it does not know who is already on the site, and Bo Ray may already be there. Sync: the preview is made again when it ends.',
    );
  });

  it('still plans an update of someone a first sync cut short did read: it targets a known person', () => {
    const [row] = plan(
      [{ username: 'ann.lee', firstname: 'Ann', lastname: 'Lee-Moss' }],
      [ann],
      'The first sync stopped',
    );
    expect(row).toMatchObject({ action: 'update', user: ann, changes: { lastname: 'Lee-Moss' } });
  });

  it('creates as before once a sync has read everyone', () => {
    expect(plan([{ username: 'bo.ray', firstname: 'Bo', lastname: 'Ray' }], [ann], null)[0]?.action).toBe(
      'create',
    );
  });
});
