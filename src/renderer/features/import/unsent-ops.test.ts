import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { openFieldbookDb } from '../../db/index.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { followUnsentOps } from './unsent-ops.ts';

const statusDraft = (userid: number) => ({
  op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  summary: `user ${userid} -> Inactive`,
});

/** A follower of a fresh cache holding one queued op, and every list it handed on. */
async function following() {
  const db = openFieldbookDb(`unsent-ops-${Math.random()}`);
  await enqueueOps(db, [statusDraft(1)]);
  const given: (readonly OutboxOp[])[] = [];
  const follower = followUnsentOps(db, (ops) => given.push(ops));
  await vi.waitFor(() => expect(given).toHaveLength(1));
  return { db, given, follower };
}

/** Lets the reads a move started finish. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the outbox's unsent ops as the import's cache follows them", () => {
  it('hands on the queue once when the version moves without a change (a connection probe): nothing is read again', async () => {
    const { given, follower } = await following();
    follower.moved();
    follower.moved();
    await settled();
    expect(given).toHaveLength(1);
    expect(given[0]!.map((op) => op.op.kind)).toEqual(['user.update']);
    follower.stop();
  });

  it('hands on the new queue when an op was queued since', async () => {
    const { db, given, follower } = await following();
    await enqueueOps(db, [statusDraft(2)]);
    follower.moved();
    await vi.waitFor(() => expect(given).toHaveLength(2));
    expect(given[1]).toHaveLength(2);
    follower.stop();
  });

  it('hands on nothing once stopped (the view closed or the profile changed)', async () => {
    const { db, given, follower } = await following();
    follower.stop();
    await enqueueOps(db, [statusDraft(2)]);
    follower.moved();
    await settled();
    expect(given).toHaveLength(1);
  });
});
