/**
 * Nothing of a profile outlives its session in a module variable: what the
 * middlewares and the outbox kept for it is collected once the session has ended.
 * The test holds the session's objects only weakly and asks V8 to collect.
 */
import 'fake-indexeddb/auto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../testing/fake-api.ts';
import { user } from '../testing/fixtures.ts';
import { SAMPLE_OPS } from '../testing/op-samples.ts';
import { allUsersByName } from '../db/users-memo.ts';
import { memoUnsentOps } from '../outbox/ops-memo.ts';
import { firstScreenGeneration, keepFirstScreen } from '../db/first-screen-kept.ts';
import { queueDrafts } from '../outbox/runtime.ts';
import { openProfileSession } from './profile-session.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** The listeners of Dexie's global "a table was written" event (one per database memory that listens). */
const storageListeners = () =>
  (Dexie.on('storagemutated') as unknown as { subscribers: unknown[] }).subscribers.length;

const storage = () => {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
};

/** A profile session used as a coordinator would, ended; only weak references to what it held come back. */
async function usedAndEnded(): Promise<WeakRef<object>[]> {
  const session = openProfileSession(
    fakeApi().api,
    { id: 'used', name: 'Coordinator' },
    { onOpenError: () => {} },
  );
  await session.outbox.opened;
  await session.db.users.bulkPut([user(1), user(2)]);
  await queueDrafts([{ op: SAMPLE_OPS['user.update'], summary: 'Lee leaves' }]);
  const people = await allUsersByName(session.db);
  const unsent = await memoUnsentOps(session.db);
  const generation = firstScreenGeneration(session.db);
  expect(keepFirstScreen(session.db, generation, { rows: [], total: 2, sites: [] }, storage())).toBe(true);
  expect([people.length, unsent.length]).toEqual([2, 1]);
  session.dispose();
  await session.ended;
  return [session.db, session.outboxDb, session.db.memory, people, unsent].map((held) => new WeakRef(held));
}

describe("a profile session's end", () => {
  it('leaves nothing of the profile in memory: its databases, its copies of people and queued changes are collected', async () => {
    const listening = storageListeners();
    const held = await usedAndEnded();
    // collected again at each look (a WeakRef keeps its target until the current job ends, and a timer of the
    // session's last writes may still hold the database for a moment): only what something keeps stays
    const collected = () => {
      collect();
      return held.map((ref) => ref.deref() === undefined);
    };
    await expect.poll(collected, { timeout: 5_000, interval: 100 }).toEqual([true, true, true, true, true]);
    expect(storageListeners()).toBe(listening);
  });
});
