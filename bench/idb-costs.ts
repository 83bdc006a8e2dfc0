/**
 * `node --experimental-strip-types bench/idb-costs.ts [DATASET]`: what IndexedDB
 * costs Chromium's processes on a synced cache (dataset `l` by default): after one
 * full sync through the harness, a page of the same origin updates existing
 * records at scattered keys, each transaction with a checkpoint row as the sync
 * writes its pages, in three shapes: many small transactions, the same records in
 * few large ones, and transactions of the checkpoint alone. Prints the time and
 * the CPU seconds of each process for each shape. Not a benchmark (no target):
 * it says how much of a resync's write cost is per record and how much per
 * transaction (README, "Benchmarks").
 */
import type { Page } from '@playwright/test';
import { cpuDelta, cpuSeconds, describeCpu, roundCpu } from './cpu-lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';

const dataset = process.argv[2] ?? 'l';
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };

/**
 * In the page (a script, as OBSERVE_SYNC: this file is type-checked for Node):
 * `transactions` transactions, each updating `perTransaction` records of `table`
 * at scattered keys and one checkpoint row. Resolves with the milliseconds taken.
 */
const UPDATES = `async ({ dbName, table, transactions, perTransaction }) => {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const records = await new Promise((resolve, reject) => {
    const read = db.transaction(table).objectStore(table).getAll(null, 60000);
    read.onsuccess = () => resolve(read.result);
    read.onerror = () => reject(read.error);
  });
  const started = performance.now();
  let n = 0;
  for (let i = 0; i < transactions; i++) {
    await new Promise((resolve, reject) => {
      const tx = db.transaction([table, 'syncCheckpoints'], 'readwrite');
      const store = tx.objectStore(table);
      // a prime stride: keys scattered over the table, as a resync's changes are
      for (let j = 0; j < perTransaction; j++) store.put({ ...records[(n++ * 7919) % records.length], notes: 'measured ' + i });
      tx.objectStore('syncCheckpoints').put({ taskId: 'idb-costs', collection: table, nextStartrow: i + 1, done: false });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
  return performance.now() - started;
}`;

async function updates(page: Page, dbName: string, table: string, transactions: number, perTransaction: number): Promise<number> {
  return (await page.evaluate(`(${UPDATES})(${JSON.stringify({ dbName, table, transactions, perTransaction })})`)) as number;
}

const session = await startBenchSession(ctx, dataset);
try {
  const app = await session.openApp('settings');
  await syncFromClick(session, app, 'Try the demo', 0, 600_000);
  await app.close();
  const page = await session.context.newPage();
  await page.goto(session.benchUrl);
  const names = (await page.evaluate(`indexedDB.databases().then((list) => list.map((d) => d.name || ''))`)) as string[];
  const dbName = names.find((n) => n.startsWith('fieldbook-'));
  if (!dbName) throw new Error(`no Fieldbook database among ${names.join(', ')}`);
  const shapes = [[800, 7], [100, 56], [800, 0], [800, 7]] as const;
  for (const table of ['trainingAssignments', 'users']) {
    for (const [transactions, perTransaction] of shapes) {
      const before = cpuSeconds(session.server.pid);
      const ms = await updates(page, dbName, table, transactions, perTransaction);
      const cpu = roundCpu(cpuDelta(before, cpuSeconds(session.server.pid)), 2);
      process.stdout.write(`${table}: ${transactions} transactions of ${perTransaction} records + a checkpoint: ${Math.round(ms)} ms; CPU s by process: ${describeCpu(cpu)}\n`);
    }
  }
} finally {
  await session.close();
}
