/** An import's batch, once stored: handed to the outbox engine, and kept for its results. */
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openOutboxOnlyDb, type OutboxDb } from '../../../shared/replay-queue/db.ts';
import { enqueueOps } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, type OutboxRuntimeState } from '../../outbox/runtime.ts';
import { useLastImport } from './ImportResults.tsx';
import { runOps } from './batch-ops.ts';
import { handOver, queuedWords, type QueueInputs } from './useImportQueue.ts';

const dbs: OutboxDb[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

/** A file of `count` rows, each queued as one change. */
async function storedImport(count: number) {
  const db = openOutboxOnlyDb(`hand-over-${Math.random()}`);
  dbs.push(db);
  const drafts = Array.from({ length: count }, (_, i) => ({
    op: { kind: 'user.update' as const, userid: 100 + i, changes: { status: 'Inactive' } },
    summary: `user ${100 + i}`,
  }));
  const ops = await enqueueOps(db, drafts);
  const rows = ops.map((_, i) => i + 2);
  const inputs = {
    fileName: 'staff.csv',
    sheet: {
      headers: ['Username'],
      rows: rows.map((rowNumber) => ({ rowNumber, cells: [`u${rowNumber}`] })),
    },
    plans: [],
  } as unknown as QueueInputs;
  return { db, ops, rows, inputs };
}

describe('an import just stored', () => {
  it('is counted from the batch as stored, though the engine moved the outbox when it took it', async () => {
    const { db, ops, rows, inputs } = await storedImport(5);
    // as the real engine: taking a batch tells the outbox it changed
    const engine = {
      added: async () => outboxStore.setState((s) => ({ version: s.version + 1 })),
    } as unknown as OutboxRuntimeState['engine'];
    outboxStore.setState({ db: db as unknown as OutboxRuntimeState['db'], engine });
    const said: string[] = [];
    await handOver(inputs, { ops, rows }, (message) => said.push(message));
    expect(said).toEqual(['Queued 5 rows from staff.csv. See them in the Outbox.']);
    const run = useLastImport.getState().run!;
    const reads = vi.spyOn(db.outbox, 'where');
    const found = await runOps({ db, version: outboxStore.getState().version }, run);
    expect(reads).not.toHaveBeenCalled();
    expect(found.size).toBe(5);
  });
});

describe('what queueing an import says', () => {
  it('counts rows as the preview and the results do, and the changes they make where those are more', () => {
    // two new people, each a person and their e-mail
    expect(queuedWords(2, 4, 'hr.csv')).toBe(
      'Queued 2 rows from hr.csv as 4 changes. See them in the Outbox.',
    );
  });

  it('says rows only when each row is one change, in the singular for one', () => {
    expect(queuedWords(1, 1, 'hr.csv')).toBe('Queued 1 row from hr.csv. See it in the Outbox.');
    expect(queuedWords(3, 3, null)).toBe('Queued 3 rows from the file. See them in the Outbox.');
  });
});
