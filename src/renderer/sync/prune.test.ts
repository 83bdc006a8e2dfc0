import { describe, expect, it } from 'vitest';
import type { CollectionProgress, TaskCheckpoint } from '../../shared/ipc.ts';
import { collectionsToPrune, orphanEmailKeys, staleKeys, type PassSummary } from './prune.ts';

const ok: CollectionProgress = { state: 'complete', records: 1, pages: 1, total: null };
const cp = (
  taskId: string,
  collection: TaskCheckpoint['collection'],
  done: boolean,
): [string, TaskCheckpoint] => [taskId, { taskId, collection, nextStartrow: 1, done }];

function pass(overrides: Partial<PassSummary> = {}): PassSummary {
  return {
    resumed: false,
    outcome: 'completed',
    collections: { users: ok, credentialAssignments: ok },
    checkpoints: new Map([
      cp('users', 'users', true),
      cp('ca:1', 'credentialAssignments', true),
      cp('ca:2', 'credentialAssignments', true),
    ]),
    ...overrides,
  };
}

describe('which collections a pass may prune', () => {
  it('prunes every collection whose tasks all completed in a fresh completed pass', () => {
    expect(collectionsToPrune(pass()).sort()).toEqual(['credentialAssignments', 'users']);
  });

  it('prunes nothing after a resumed pass', () => {
    expect(collectionsToPrune(pass({ resumed: true }))).toEqual([]);
  });

  it('prunes nothing after a cancelled or failed pass', () => {
    expect(collectionsToPrune(pass({ outcome: 'cancelled' }))).toEqual([]);
    expect(collectionsToPrune(pass({ outcome: 'failed' }))).toEqual([]);
  });

  it('prunes nothing when any collection failed', () => {
    expect(
      collectionsToPrune(
        pass({
          collections: { users: ok, credentialAssignments: ok, moduleAccess: { ...ok, state: 'failed' } },
        }),
      ),
    ).toEqual([]);
  });

  it('leaves a collection alone when one of its tasks did not finish', () => {
    const checkpoints = new Map([
      cp('users', 'users', true),
      cp('ca:1', 'credentialAssignments', true),
      cp('ca:2', 'credentialAssignments', false),
    ]);
    expect(collectionsToPrune(pass({ checkpoints }))).toEqual(['users']);
  });

  it('leaves a collection alone when the pass delivered nothing for it', () => {
    expect(collectionsToPrune(pass({ checkpoints: new Map([cp('users', 'users', true)]) }))).toEqual([
      'users',
    ]);
  });
});

describe('stale keys', () => {
  it('are the cached keys the pass did not deliver', () => {
    expect(staleKeys([1, 2, 3, 4], new Set([2, 4]))).toEqual([1, 3]);
  });
});

describe('e-mails of users the server no longer has', () => {
  it('are the ones removed with their user, and only those', () => {
    const emails = [
      { emailid: 1, userid: 10 },
      { emailid: 2, userid: 11 },
      { emailid: 3, userid: 10 },
    ];
    expect(orphanEmailKeys(emails, new Set([10]))).toEqual([2]);
    expect(orphanEmailKeys(emails, new Set([10, 11]))).toEqual([]);
  });
});
