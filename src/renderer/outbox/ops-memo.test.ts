import 'fake-indexeddb/auto';
import { liveQuery } from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { openFieldbookDb } from '../db/index.ts';
import { DatabaseMemory } from '../db/memory.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import { memoUnsentOps } from './ops-memo.ts';

const statusDraft = (userid: number) => ({
  op: { kind: 'user.update' as const, userid, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  summary: `user ${userid} -> Inactive`,
});

describe("the outbox's unsent ops held in memory", () => {
  it('lists every op not done, whatever its state, and no done op', async () => {
    const db = openFieldbookDb(`ops-memo-${Math.random()}`);
    const ops = await enqueueOps(db, [1, 2, 3, 4].map(statusDraft));
    await db.outbox.update(ops[0]!.id, { status: 'done' });
    await db.outbox.update(ops[1]!.id, { status: 'conflict' });
    await db.outbox.update(ops[2]!.id, { status: 'sending' });
    const unsent = await memoUnsentOps(db);
    expect(unsent.map((op) => op.id).sort()).toEqual([ops[1]!.id, ops[2]!.id, ops[3]!.id].sort());
  });

  it('is read again after a write to the outbox', async () => {
    const db = openFieldbookDb(`ops-memo-${Math.random()}`);
    await enqueueOps(db, [statusDraft(1)]);
    expect(await memoUnsentOps(db)).toHaveLength(1);
    await enqueueOps(db, [statusDraft(2)]);
    expect(await memoUnsentOps(db)).toHaveLength(2);
  });

  it('does not make a live query that reads it follow every write to the outbox (views follow its version)', async () => {
    const db = openFieldbookDb(`ops-memo-${Math.random()}`);
    await enqueueOps(db, [statusDraft(1)]);
    let memoRuns = 0;
    const memoQuery = liveQuery(async () => {
      memoRuns += 1;
      return (await memoUnsentOps(db)).length;
    }).subscribe(() => undefined);
    // a live query that does follow the outbox: when it has seen the write, so would the other one have
    const counts: number[] = [];
    const countQuery = liveQuery(() => db.outbox.count()).subscribe((n) => counts.push(n));
    await vi.waitFor(() => expect([memoRuns, counts]).toEqual([1, [1]]));
    await enqueueOps(db, [statusDraft(2)]);
    await vi.waitFor(() => expect(counts).toEqual([1, 2]));
    expect(memoRuns).toBe(1);
    memoQuery.unsubscribe();
    countQuery.unsubscribe();
  });
});

describe("the views' copy and an import written packed through the outbox's own instance", () => {
  it('holds the packed ops once the write has committed, whenever the reads before it began', async () => {
    const name = `ops-memo-${Math.random()}`;
    const memory = new DatabaseMemory(name);
    const views = openFieldbookDb(name, { memory });
    const outbox = openFieldbookDb(name, { memory, durability: 'strict' });
    const reads: Promise<unknown>[] = [];
    const read = () => reads.push(memoUnsentOps(views));
    // the views read as the import's transaction is made, as its packs are handed over, and right after
    outbox.use({
      stack: 'dbcore',
      name: 'viewsReadAlong',
      create: (down) => ({
        ...down,
        transaction: (...args) => {
          const made = down.transaction(...args);
          read();
          return made;
        },
        table: (table) => {
          const inner = down.table(table);
          return {
            ...inner,
            mutate: (req) => {
              if (table === 'outboxPacks') read();
              const written = inner.mutate(req);
              if (table === 'outboxPacks') read();
              return written;
            },
          };
        },
      }),
    });
    await enqueueOps(outbox, [statusDraft(1)]);
    read();
    const packed = await enqueueOps(outbox, [statusDraft(2), statusDraft(3)], { packed: true });
    // as a view reads once the outbox's version has moved, right after the commit
    const unsent = await memoUnsentOps(views);
    await Promise.all(reads);
    expect(unsent.map((op) => op.id)).toEqual(expect.arrayContaining(packed.map((op) => op.id)));
    expect(unsent).toHaveLength(3);
    views.close();
    outbox.close();
  });
});
