/** What the import asks main about the sites not kept on this laptop, and how the answers read. */
import { describe, expect, it } from 'vitest';
import { MAX_IDENTITIES_PER_CHECK, type IdentitiesCheck } from '../../../shared/ipc.ts';
import { askSitesNotKept, sitesNotKeptOf, valuesToCheck } from './not-kept.ts';
import type { ImportRow } from './match.ts';
import { fakeApi } from '../../testing/fake-api.ts';

const rows = (values: ImportRow['values'][]): ImportRow[] =>
  values.map((v, i) => ({ rowNumber: i + 2, values: v }));
const answer = (over: Partial<IdentitiesCheck> = {}): IdentitiesCheck => ({
  held: [],
  unknownSites: [],
  notSynced: false,
  syncedAt: 'T',
  ...over,
});

describe('the values asked', () => {
  it('are the distinct usernames and e-mails of the file, lower-cased, in messages the contract accepts', async () => {
    expect(
      await valuesToCheck(
        rows([{ username: 'Ann', email: 'A@x.example' }, { username: 'ann' }, { firstname: 'No id' }]),
      ),
    ).toEqual([{ usernames: ['ann'], emails: ['a@x.example'] }]);
    const many = (await valuesToCheck(
      rows(
        Array.from({ length: MAX_IDENTITIES_PER_CHECK + 1 }, (_, i) => ({
          username: `u${i}`,
          email: `u${i}@x.example`,
        })),
      ),
    ))!;
    expect(many.map((m) => m.usernames.length + m.emails.length)).toEqual([
      MAX_IDENTITIES_PER_CHECK,
      MAX_IDENTITIES_PER_CHECK,
      2,
    ]);
  });

  it('include the username derived for a new hire (the file has none): it must be free at the sites not kept too', async () => {
    expect(
      await valuesToCheck([
        { rowNumber: 2, values: { firstname: 'Anna', lastname: 'Smith' }, derived: 'anna.smith' },
      ]),
    ).toEqual([{ usernames: ['anna.smith'], emails: [] }]);
  });

  it('are read a slice at a time, and not asked at all once the file or the settings changed', async () => {
    const { api, respond } = fakeApi();
    let asked = 0;
    respond('identities:check', () => ((asked += 1), { ok: true, value: answer() }));
    expect(await askSitesNotKept(api, rows([{ username: 'ann' }]), [1], () => true)).toBeNull();
    expect(asked).toBe(0);
  });
});

describe('the answers, in words', () => {
  it('name the sites that could not be checked: two by name, more as "and N other sites"', () => {
    expect(sitesNotKeptOf([answer({ unknownSites: ['Quarry', 'North Depot'] })]).unchecked).toBe(
      'The usernames and e-mails of Quarry and North Depot, not kept on this laptop, are not known here until a sync has read them',
    );
    expect(
      sitesNotKeptOf([answer({ unknownSites: ['Quarry', 'North Depot', 'Harbor'] })]).unchecked,
    ).toContain('of Quarry and 2 other sites, not kept');
    expect(sitesNotKeptOf([answer()]).unchecked).toBeNull();
  });

  it('say when those sites were read: the oldest reading of the answers (none when never read)', () => {
    expect(
      sitesNotKeptOf([
        answer({ syncedAt: '2026-11-27T12:00:00.000Z' }),
        answer({ syncedAt: '2026-11-27T08:00:00.000Z' }),
      ]).readAt,
    ).toBe('2026-11-27T08:00:00.000Z');
    expect(sitesNotKeptOf([answer({ syncedAt: null, notSynced: true })]).readAt).toBeNull();
  });

  it('a failed question checks nothing, and says so', async () => {
    const { api, respond } = fakeApi();
    respond('identities:check', () => ({
      ok: false,
      error: { code: 'internal', message: 'Something failed.' },
    }));
    const notKept = await askSitesNotKept(api, rows([{ username: 'ann' }]), [1]);
    expect(notKept?.unchecked).toBe(
      'The sites not kept on this laptop could not be checked (Something failed)',
    );
  });
});
