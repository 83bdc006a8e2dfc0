/**
 * `node --experimental-strip-types bench/idb-op-records.ts [OPS] [ROUNDS]`: what Chromium's IndexedDB costs to store
 * the ops of an import (a create and its e-mail per row, as enqueueOps makes them) in one strict transaction, by the
 * shape they are stored in: as queued today (the outbox's status and seq indexes), without the fields at their
 * never-tried defaults, without indexes, with one compound index instead of two, as records of three fields, and ten
 * ops packed in one record. Each shape in a fresh database of a fresh profile, the shapes alternating over the rounds,
 * the browser left to settle (its compactions) before and after each. Prints the time to the commit and the CPU
 * seconds of Chromium's processes. Not a benchmark (no target): it says what the queueing's time is made of
 * (docs/benchmarks.md, "Queueing 100,000 ops: a record costs the same whatever it holds").
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { launchChromium } from './browser-lib.ts';
import { chromiumSeconds, cpuDelta, cpuSeconds, describeCpu, roundCpu, waitUntilQuiet } from './cpu-lib.ts';

const OPS = Number(process.argv[2] ?? 20_000);
const ROUNDS = Number(process.argv[3] ?? 2);

/** The shapes, by name: what each changes of the records or the store (see STORE_OPS). */
const SHAPES = [
  'as queued',
  'no defaults',
  'no indexes',
  'one compound index',
  'three fields',
  'ten per record',
];

/**
 * In the page (a script, as idb-costs.ts: this file is type-checked for Node): the ops made, then stored in one strict
 * transaction in the given shape. Resolves with the milliseconds from the first request to the commit.
 */
const STORE_OPS = `async ({ shape, ops }) => {
  const name = 'ops-' + shape + '-' + Math.random();
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => {
      const store = open.result.createObjectStore('outbox', { keyPath: 'id' });
      if (shape === 'no indexes' || shape === 'ten per record') return;
      if (shape === 'one compound index') return void store.createIndex('[status+seq]', ['status', 'seq']);
      store.createIndex('status', 'status');
      store.createIndex('seq', 'seq');
    };
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const batchId = crypto.randomUUID();
  const at = new Date().toISOString();
  let records = [];
  for (let i = 0; i < ops; i++) {
    const create = i % 2 === 0;
    const before = records[i - 1];
    const name = 'jane.doe' + (i >> 1);
    const op = {
      id: crypto.randomUUID(), batchId, seq: i + 1, targetKey: 'user:new:3:' + name, dependsOn: create ? [] : [before.id],
      op: create
        ? {
            kind: 'user.create', siteid: 3,
            fields: { username: name, firstname: 'Jane', lastname: 'Doe', employeeid: 'E' + i, status: 'active' },
          }
        : { kind: 'email.add', userid: 0, email: name + '@example.com' },
      base: {}, createdAt: at, status: 'pending', attempts: 0, maybeSent: false, nextAttemptAt: null, lastError: null,
      response: null, theirs: null,
      summary: (create ? 'Create ' : 'Add e-mail ' + name + '@example.com to ') + name + ' (row ' + i + ')',
      ...(create ? {} : { bindings: [{ fromOp: before.id, field: 'userid' }] }),
      batchLabel: 'Import of staff.xlsx', updatedAt: at,
    };
    const defaults = ['attempts', 'maybeSent', 'nextAttemptAt', 'lastError', 'response', 'theirs', 'updatedAt'];
    if (shape === 'no defaults') for (const key of defaults) delete op[key];
    records.push(op);
  }
  if (shape === 'three fields') records = records.map((op) => ({ id: op.id, seq: op.seq, status: op.status }));
  if (shape === 'ten per record') {
    const packed = [];
    for (let i = 0; i < records.length; i += 10) packed.push({ id: records[i].id, ops: records.slice(i, i + 10) });
    records = packed;
  }
  const start = performance.now();
  await new Promise((resolve, reject) => {
    const tx = db.transaction('outbox', 'readwrite', { durability: 'strict' });
    const store = tx.objectStore('outbox');
    for (const record of records) store.add(record);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  const ms = performance.now() - start;
  db.close();
  await new Promise((resolve) => {
    const del = indexedDB.deleteDatabase(name);
    del.onsuccess = del.onerror = resolve;
  });
  return ms;
}`;

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><title>ops</title>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const profile = mkdtempSync(path.join(tmpdir(), 'idb-op-records-'));
const context = await launchChromium(profile);
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  for (let round = 1; round <= ROUNDS; round++)
    for (const shape of SHAPES) {
      await waitUntilQuiet(chromiumSeconds);
      const before = cpuSeconds(undefined);
      const ms = (await page.evaluate(`(${STORE_OPS})(${JSON.stringify({ shape, ops: OPS })})`)) as number;
      const quiet = await waitUntilQuiet(chromiumSeconds);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(undefined)), 2));
      const took = Math.round(ms);
      process.stdout.write(`round ${round}, ${OPS} ops ${shape}: ${took} ms to the commit; `);
      process.stdout.write(`until quiet (${quiet.waitedMs} ms more), CPU s by process: ${cpu}\n`);
    }
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
