import { describe, expect, it } from 'vitest';
import type { SyncFinishedEvent, SyncProgress } from '../../shared/ipc.ts';
import { outcomeText, progressText } from './status-text.ts';

const finished = (
  outcome: SyncFinishedEvent['outcome'],
  plannedRequests: number | null = 1093,
): SyncFinishedEvent => ({ syncId: 's', outcome, requests: 42, plannedRequests, collections: {} });
const progress = (phase: SyncProgress['phase'], records: number, total: number | null): SyncProgress => ({
  syncId: 's',
  phase,
  collection: 'users',
  records,
  pages: 1,
  requests: 1,
  plannedRequests: null,
  rate: 0,
  total,
  collections: {},
});
const state = { running: false, rowsWritten: 4200, rowsRemoved: 0, pagesWritten: 42 };

describe('the words of the sync state', () => {
  it('says what a cancelled pass kept and that resuming continues from there', () => {
    expect(outcomeText({ ...state, finished: finished('cancelled') })).toBe(
      'Sync paused: 4,200 records written and kept; Resume sync continues from there.',
    );
  });

  it('says a completed pass is complete, with what it wrote and removed', () => {
    expect(outcomeText({ ...state, rowsRemoved: 3, finished: finished('completed') })).toBe(
      'Sync completed. 4,200 records written, 3 removed.',
    );
  });

  it('says nothing of an outcome while a pass still runs', () => {
    expect(outcomeText({ ...state, running: true, finished: finished('completed') })).toBeNull();
  });

  it('shows progress as N of M, and a final event as still finishing', () => {
    expect(progressText(progress('fetching', 1234, 5000))).toBe('Syncing… 1,234 of 5,000 records');
    expect(progressText(progress('completed', 5000, 5000))).toBe('Finishing… 5,000 of 5,000 records');
    expect(progressText(null)).toBe('Starting…');
  });
});

describe('the sync state in the singular', () => {
  it('writes one record as such', () => {
    expect(
      outcomeText({ running: false, rowsWritten: 1, rowsRemoved: 0, finished: finished('cancelled', null) }),
    ).toBe('Sync paused: 1 record written and kept; Resume sync continues from there.');
    expect(progressText(progress('fetching', 1, null))).toBe('Syncing… 1 record');
  });
});

describe('a completed pass with lists it could not read', () => {
  const state = { running: false, rowsWritten: 4200, rowsRemoved: 0, pagesWritten: 42 };
  const failed = { state: 'failed' as const, records: 0, pages: 0, total: null };
  const complete = { state: 'complete' as const, records: 1, pages: 1, total: null };
  const done = (collections: SyncFinishedEvent['collections']): SyncFinishedEvent => ({
    syncId: 's',
    outcome: 'completed',
    requests: 42,
    plannedRequests: 42,
    collections,
  });

  it('says so and names them in the coordinator’s words, never "completed." alone', () => {
    expect(outcomeText({ ...state, finished: done({ users: failed, sites: complete }) })).toBe(
      'Sync completed with errors: Users not synced (see Collections). 4,200 records written.',
    );
    expect(outcomeText({ ...state, finished: done({ users: failed, moduleAccess: failed }) })).toBe(
      'Sync completed with errors: Users and Feature access not synced (see Collections). 4,200 records written.',
    );
  });

  it('counts the rest past three', () => {
    const all = { users: failed, emails: failed, groups: failed, moduleAccess: failed };
    expect(outcomeText({ ...state, finished: done(all) })).toBe(
      'Sync completed with errors: Users, E-mail addresses and 2 more not synced (see Collections). 4,200 records written.',
    );
  });
});
