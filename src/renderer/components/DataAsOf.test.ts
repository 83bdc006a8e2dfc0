import { describe, expect, it } from 'vitest';
import { dataAsOfText } from './DataAsOf.tsx';
import { formatDateTime } from '../app/format.ts';

describe('the "data as of" stamp', () => {
  it('gives the time of the oldest synced list', () => {
    const rows = [{ lastSyncedAt: '2026-11-02T10:00:00.000Z' }, { lastSyncedAt: '2026-11-01T09:00:00.000Z' }];
    expect(dataAsOfText(rows, false)).toBe(`Data as of ${formatDateTime('2026-11-01T09:00:00.000Z')}`);
  });

  it('says when some lists were never synced, and when a sync is running', () => {
    const rows = [{ lastSyncedAt: '2026-11-02T10:00:00.000Z' }, { lastSyncedAt: null }];
    expect(dataAsOfText(rows, true)).toBe(`Data as of ${formatDateTime('2026-11-02T10:00:00.000Z')} (some lists not synced yet) · syncing now`);
  });

  it('says when nothing was synced yet', () => {
    expect(dataAsOfText([], false)).toBe('Not synced yet');
  });
});
