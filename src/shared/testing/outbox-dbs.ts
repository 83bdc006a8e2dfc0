/** Outbox databases for tests: a new one per call, each closed after the test that opened it. */
import { afterEach } from 'vitest';
import { openOutboxOnlyDb, type OutboxDb } from '../replay-queue/db.ts';

/** Call at a test file's top level: `const freshDb = outboxDbsClosedAfterEach('engine-test')`. */
export function outboxDbsClosedAfterEach(prefix: string): () => OutboxDb {
  let count = 0;
  const open: OutboxDb[] = [];
  afterEach(() => open.splice(0).forEach((db) => db.close()));
  return () => {
    const db = openOutboxOnlyDb(`${prefix}-${++count}`);
    open.push(db);
    return db;
  };
}
