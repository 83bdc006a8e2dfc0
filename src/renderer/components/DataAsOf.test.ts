import { describe, expect, it } from 'vitest';
import { dataAsOfText, lastSyncText } from './DataAsOf.tsx';
import { formatDateTime } from '../app/format.ts';

describe('the "data as of" stamp', () => {
  it('gives the time of the oldest synced list', () => {
    const rows = [{ lastSyncedAt: '2026-11-02T10:00:00.000Z' }, { lastSyncedAt: '2026-11-01T09:00:00.000Z' }];
    expect(dataAsOfText(rows, false)).toBe(`Data as of ${formatDateTime('2026-11-01T09:00:00.000Z')}`);
  });

  it('says when some lists were never synced, and when a sync is running', () => {
    const rows = [{ lastSyncedAt: '2026-11-02T10:00:00.000Z' }, { lastSyncedAt: null }];
    expect(dataAsOfText(rows, true)).toBe(
      `Data as of ${formatDateTime('2026-11-02T10:00:00.000Z')} (some lists not synced yet) · syncing now`,
    );
  });

  it('says when nothing was synced yet', () => {
    expect(dataAsOfText([], false)).toBe('Not synced yet');
  });
});

describe('what the last sync did', () => {
  const now = new Date('2026-11-27T15:00:00');
  it('says when the last sync ended and how many records the cache holds', () => {
    const rows = [
      { lastSyncedAt: new Date('2026-11-27T11:02:00').toISOString(), total: 6_000 },
      { lastSyncedAt: new Date('2026-11-27T11:01:00').toISOString(), total: 53 },
    ];
    const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(
      new Date('2026-11-27T11:02:00'),
    );
    expect(lastSyncText(rows, now)).toBe(`Synced ${time} — ${(6_053).toLocaleString()} records`);
  });

  it('gives the day too when the last sync was not today', () => {
    const at = new Date('2026-11-20T09:00:00').toISOString();
    expect(lastSyncText([{ lastSyncedAt: at, total: 1 }], now)).toBe(
      `Synced ${formatDateTime(at)} — 1 record`,
    );
  });

  it('says nothing before the first sync', () => {
    expect(lastSyncText([{ lastSyncedAt: null, total: null }], now)).toBeNull();
  });
});
