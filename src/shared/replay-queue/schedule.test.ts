import { describe, expect, it } from 'vitest';
import { backoffMs, runnableOps } from './schedule.ts';
import { outboxOp, statusOp } from '../testing/test-ops.ts';

const free = { now: Date.parse('2026-01-01T00:00:00Z'), busyTargets: new Set<string>(), capacity: 10 };

describe('which queued ops may go now', () => {
  it('sends only the first op of each target, so edits to one record keep their order', () => {
    const first = statusOp(1, 'Inactive');
    const second = statusOp(1, 'Active');
    const other = statusOp(2, 'Inactive');
    expect(runnableOps([second, first, other], free).map((op) => op.id)).toEqual([first.id, other.id]);
  });

  it('holds a target behind a parked op until a person decides', () => {
    const parked = statusOp(1, 'Inactive', { status: 'conflict' });
    const later = statusOp(1, 'Active');
    expect(runnableOps([parked, later], free)).toEqual([]);
  });

  it("waits for a user's create before that user's grants", () => {
    const create = outboxOp({ kind: 'user.create', siteid: 101, fields: { username: 'new', firstname: 'N', lastname: 'U' } });
    const grant = outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 0 }, { dependsOn: [create.id], targetKey: 'groupAccess:new' });
    expect(runnableOps([create, grant], free).map((op) => op.id)).toEqual([create.id]);
    expect(runnableOps([{ ...create, status: 'done' }, grant], free).map((op) => op.id)).toEqual([grant.id]);
  });

  it('treats a dependency no longer in the outbox as done (cleared after success)', () => {
    const grant = outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 9 }, { dependsOn: ['gone'] });
    expect(runnableOps([grant], free)).toHaveLength(1);
  });

  it('leaves an op alone while it waits out its backoff', () => {
    const waiting = statusOp(1, 'Inactive', { nextAttemptAt: '2026-01-01T00:00:05Z' });
    expect(runnableOps([waiting], free)).toEqual([]);
    expect(runnableOps([waiting], { ...free, now: Date.parse('2026-01-01T00:00:06Z') })).toHaveLength(1);
  });

  it('starts no more than the free capacity, skipping targets already in flight', () => {
    const ops = [statusOp(1, 'A'), statusOp(2, 'A'), statusOp(3, 'A')];
    expect(runnableOps(ops, { ...free, capacity: 2 })).toHaveLength(2);
    expect(runnableOps(ops, { ...free, busyTargets: new Set(['user:1']) }).map((op) => op.targetKey)).toEqual(['user:2', 'user:3']);
  });
});

describe('backoff', () => {
  const policy = { baseMs: 1000, maxMs: 60_000 };

  it('grows exponentially with jitter between half and all of the step', () => {
    expect(backoffMs(1, 0, policy)).toBe(500);
    expect(backoffMs(1, 1, policy)).toBe(1000);
    expect(backoffMs(3, 0, policy)).toBe(2000);
    expect(backoffMs(3, 1, policy)).toBe(4000);
  });

  it('never exceeds the cap', () => {
    expect(backoffMs(30, 1, policy)).toBe(60_000);
  });

  it("never retries sooner than the server's Retry-After", () => {
    expect(backoffMs(1, 0, policy, 7000)).toBe(7000);
  });
});
