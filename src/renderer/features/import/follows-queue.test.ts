/**
 * The import's cache (useImportCache.ts) reads its people and their e-mails again, and a preview being planned starts
 * again from its first row, each time the outbox's version moves. A connection probe (every 15 s) must not move it:
 * 20,000 people and 100,000 queued ops were read again on each. (The renderer tests run without a DOM, so the hook is
 * followed through the version it reads on.)
 */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../testing/fake-api.ts';
import { openProfileSession, type ProfileSession } from '../../app/profile-session.ts';
import { outboxStore, queueDrafts } from '../../outbox/runtime.ts';

let session: ProfileSession | null = null;
afterEach(async () => {
  session?.dispose();
  await session?.ended;
  session = null;
});

const leaves = (userid: number) => ({
  op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
  summary: `user ${userid} leaves`,
});

describe('the import following the queue', () => {
  it('does not read the cache again on a connection probe, offline with changes queued', async () => {
    session = openProfileSession(
      fakeApi().api,
      { id: `import-follows-${Math.random()}`, name: 'C' },
      {
        onOpenError: () => undefined,
      },
    );
    await session.outbox.opened;
    await queueDrafts(Array.from({ length: 50 }, (_, i) => leaves(i + 1)));
    session.outbox.setOnline(false);
    await outboxStore.getState().engine!.whenIdle();
    let reads = 0;
    const stop = outboxStore.subscribe((state, before) => {
      if (state.version !== before.version) reads++;
    });
    for (let probe = 0; probe < 10; probe++) session.outbox.setOnline(false);
    await outboxStore.getState().engine!.whenIdle();
    expect(reads).toBe(0);
    // a change queued is read (the file's rows are planned against it)
    await queueDrafts([leaves(51)]);
    expect(reads).toBeGreaterThan(0);
    stop();
  });
});
