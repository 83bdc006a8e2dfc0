/**
 * `node --experimental-strip-types bench/idb-costs.ts [DATASET]`: what IndexedDB
 * costs Chromium's processes on a synced cache (dataset `l` by default): after one
 * full sync through the harness, a page of the same origin updates existing
 * records at scattered keys, each transaction with a checkpoint row as the sync
 * writes its pages, in three shapes: many small transactions, the same records in
 * few large ones, and transactions of the checkpoint alone (`FIELDBOOK_ROWS=1`,
 * `FIELDBOOK_CHECKPOINTS=1`, `FIELDBOOK_BATCH=1`: other shapes, below). Prints the time and
 * the CPU seconds of each process for each shape. Not a benchmark (no target):
 * it says how much of a resync's write cost is per record and how much per
 * transaction (docs/benchmarks.md).
 */
import type { Page } from '@playwright/test';
import { chromiumSeconds, cpuDelta, cpuSeconds, describeCpu, roundCpu, waitUntilQuiet } from './cpu-lib.ts';
import { startBenchSession, syncFromClick } from './session-lib.ts';

const dataset = process.argv[2] ?? 'l';
const ctx = { root: process.cwd(), log: (m: string) => process.stderr.write(`  ${m}\n`) };

/**
 * In the page (a script, as OBSERVE_SYNC: this file is type-checked for Node):
 * `transactions` transactions, each updating `perTransaction` records of `table`
 * at scattered keys and one checkpoint row. Resolves with the milliseconds taken.
 */
const UPDATES = `async ({ dbName, table, transactions, perTransaction, rows, rowBytes, stride }) => {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  // the records to update, read once per table and kept (the read costs Chromium up to half a CPU second of its own)
  globalThis.__idbCostsRecords ??= {};
  const records = globalThis.__idbCostsRecords[table] ??= await new Promise((resolve, reject) => {
    const read = db.transaction(table).objectStore(table).getAll(null, 60000);
    read.onsuccess = () => resolve(read.result);
    read.onerror = () => reject(read.error);
  });
  // text that does not compress (as hashes do not): LevelDB's Snappy would shrink padding to nothing
  const noise = (n) => {
    const bytes = crypto.getRandomValues(new Uint8Array(n));
    return Array.from(bytes, (b) => String.fromCharCode(48 + (b % 64))).join('');
  };
  const started = performance.now();
  let n = 0;
  for (let i = 0; i < transactions; i++) {
    await new Promise((resolve, reject) => {
      const tx = db.transaction([table, 'syncCheckpoints', 'pageFingerprints'], 'readwrite');
      const store = tx.objectStore(table);
      // rows the size of page fingerprints (keys and hashes as text), replacing rows of the same keys
      for (let j = 0; j < rows; j++) {
        const key = 'idb-costs\\n' + ((i * rows + j) % 800);
        const text = { keys: noise(rowBytes / 2), hashes: noise(rowBytes / 2) };
        const row = { key, collection: 'idb-costs', taskId: 'idb-costs', startrow: j, hash: String(i), ...text };
        tx.objectStore('pageFingerprints').put(row);
      }
      // a prime stride: keys scattered over the table, as a resync's changes are (or 1: neighbours)
      for (let j = 0; j < perTransaction; j++) {
        const record = records[(n++ * stride) % records.length];
        store.put({ ...record, notes: 'measured ' + i });
      }
      tx.objectStore('syncCheckpoints').put({ taskId: 'idb-costs', collection: table, nextStartrow: i + 1, done: false });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }
  db.close();
  return performance.now() - started;
}`;

/** In the page: one transaction putting `rows` checkpoint rows of new task ids, then clearing them in a second. */
const CHECKPOINTS = `async ({ dbName, rows }) => {
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(dbName);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const started = performance.now();
  const run = (fill) => new Promise((resolve, reject) => {
    const tx = db.transaction(['syncCheckpoints'], 'readwrite');
    fill(tx.objectStore('syncCheckpoints'));
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  const tag = Math.random().toString(36).slice(2);
  await run((store) => {
    for (let i = 0; i < rows; i++) {
      store.put({ taskId: 'idb-costs-' + tag + '-' + i, collection: 'users', nextStartrow: 1001, done: false });
    }
  });
  await run((store) => store.clear());
  db.close();
  return performance.now() - started;
}`;

async function updates(
  page: Page,
  dbName: string,
  table: string,
  transactions: number,
  perTransaction: number,
  rows = 0,
  rowBytes = 0,
  stride = 7919,
): Promise<number> {
  return (await page.evaluate(
    `(${UPDATES})(${JSON.stringify({ dbName, table, transactions, perTransaction, rows, rowBytes, stride })})`,
  )) as number;
}

const session = await startBenchSession(ctx, dataset);
try {
  const app = await session.openApp('settings');
  await syncFromClick(session, app, 'Try the demo', 0, 600_000);
  await app.close();
  const page = await session.context.newPage();
  await page.goto(session.benchUrl);
  const names = (await page.evaluate(
    `indexedDB.databases().then((list) => list.map((d) => d.name || ''))`,
  )) as string[];
  const dbName = names.find((n) => n.startsWith('fieldbook-'));
  if (!dbName) throw new Error(`no Fieldbook database among ${names.join(', ')}`);
  if (process.env.FIELDBOOK_ROWS === '1') {
    // a 1% resync's shape: 30 transactions of 173 records, each with 24 fingerprint rows of 20 KB, 2 KB or none;
    // the CPU counted until Chromium is quiet again (its compactions included)
    for (const [rows, rowBytes] of [
      [24, 20_000],
      [24, 2_000],
      [0, 0],
      [24, 20_000],
      [24, 2_000],
      [0, 0],
    ] as const) {
      await waitUntilQuiet(chromiumSeconds);
      const before = cpuSeconds(session.server.pid);
      const ms = await updates(page, dbName, 'trainingAssignments', 30, 173, rows, rowBytes);
      const quiet = await waitUntilQuiet(chromiumSeconds);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(session.server.pid)), 2));
      const took = Math.round(ms);
      process.stdout.write(
        `30 transactions of 173 records and ${rows} rows of ${rowBytes} bytes: ${took} ms; until quiet (${quiet.waitedMs} ms more), CPU s by process: ${cpu}\n`,
      );
    }
  }
  if (process.env.FIELDBOOK_BATCH === '1') {
    // a 1% resync's writes (about 5,200 records and 800 fingerprint rows of 18 KB) in transactions of
    // different sizes: LevelDB Scopes keeps a transaction's writes in memory up to 1 MB, and beyond it
    // writes an undo log (a read of every key's old value, the old value written again, a clean-up task);
    // then the records alone, scattered and neighbouring; all twice. The first shape (no transaction)
    // is the read of the records alone the first time, nothing the second. The renderer's figure includes making the
    // rows' text.
    const batches = [
      [0, 0, 1],
      [17, 48, 7919],
      [34, 24, 7919],
      [68, 12, 7919],
      [34, 0, 7919],
      [34, 0, 1],
    ] as const;
    for (const [transactions, rows, stride] of [...batches, ...batches]) {
      await waitUntilQuiet(chromiumSeconds);
      const before = cpuSeconds(session.server.pid);
      const perTransaction = transactions > 0 ? Math.round(5_200 / transactions) : 0;
      const ms = await updates(
        page,
        dbName,
        'trainingAssignments',
        transactions,
        perTransaction,
        rows,
        18_000,
        stride,
      );
      const quiet = await waitUntilQuiet(chromiumSeconds);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(session.server.pid)), 2));
      const keys = stride === 1 ? 'neighbouring' : 'scattered';
      const took = Math.round(ms);
      process.stdout.write(
        `${transactions} transactions of ${perTransaction} ${keys} records and ${rows} rows of 18 KB: ${took} ms; until quiet (${quiet.waitedMs} ms more), CPU s by process: ${cpu}\n`,
      );
    }
  }
  if (process.env.FIELDBOOK_CHECKPOINTS === '1') {
    // one transaction of N new checkpoint rows (as an unchanged run's deferred checkpoints): per row or per
    // transaction?
    for (const rows of [1, 14, 50, 200, 1, 50, 200]) {
      await waitUntilQuiet(chromiumSeconds);
      const before = cpuSeconds(session.server.pid);
      const ms = (await page.evaluate(`(${CHECKPOINTS})(${JSON.stringify({ dbName, rows })})`)) as number;
      const quiet = await waitUntilQuiet(chromiumSeconds);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(session.server.pid)), 2));
      const took = Math.round(ms);
      process.stdout.write(
        `1 transaction of ${rows} new checkpoint rows: ${took} ms; until quiet (${quiet.waitedMs} ms more), CPU s by process: ${cpu}\n`,
      );
    }
  }
  const shapes = [
    [800, 7],
    [100, 56],
    [800, 0],
    [800, 7],
  ] as const;
  for (const table of process.env.FIELDBOOK_ROWS === '1' ||
  process.env.FIELDBOOK_CHECKPOINTS === '1' ||
  process.env.FIELDBOOK_BATCH === '1'
    ? []
    : ['trainingAssignments', 'users']) {
    for (const [transactions, perTransaction] of shapes) {
      const before = cpuSeconds(session.server.pid);
      const ms = await updates(page, dbName, table, transactions, perTransaction);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(session.server.pid)), 2));
      const took = Math.round(ms);
      process.stdout.write(
        `${table}: ${transactions} transactions of ${perTransaction} records + a checkpoint: ${took} ms; CPU s by process: ${cpu}\n`,
      );
    }
  }
} finally {
  await session.close();
}
