/**
 * `node --experimental-strip-types bench/idb-head-pages.ts [ROUNDS]`: what Chromium's IndexedDB costs to read and
 * rewrite a day's heads of `l` in a few shapes: 2,800 of 20,000 records of 400 bytes (one head a record, read by key),
 * rewritten all or half (the people due by date left alone), every one of 256 pages of 80 heads (32 kB each, read at
 * once), and one record of 300 kB (what every person's findings and next day would take). Random bytes (a head's
 * binary form does not compress). Prints the time of each read and write and the CPU seconds of Chromium's
 * processes. Not a benchmark: it says whether pages of heads pay (docs/decisions/history.md, "The heads not
 * kept in pages").
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { launchChromium } from './browser-lib.ts';
import { chromiumSeconds, cpuDelta, cpuSeconds, describeCpu, roundCpu, waitUntilQuiet } from './cpu-lib.ts';

const ROUNDS = Number(process.argv[2] ?? 2);
/** Each shape: records in the store, bytes each, how many a day reads (by key; all: one read of them all), rewrites. */
const SHAPES = {
  'a head a record': { records: 20_000, bytes: 400, read: 2800, write: 2800 },
  'a head a record, half rewritten': { records: 20_000, bytes: 400, read: 2800, write: 1450 },
  'pages of 80 heads': { records: 256, bytes: 80 * 400, read: 'all', write: 256 },
  'one record of 300 kB': { records: 1, bytes: 300_000, read: 'all', write: 1 },
};

/** In the page: the store filled, then the day's records read and rewritten; resolves with { read, write } ms. */
const DAY = `async ({ shape, step }) => {
  const { records, bytes, read: reads, write: writes } = shape;
  const paged = reads === 'all';
  const name = 'heads-' + records + '-' + bytes;
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('heads', { keyPath: 'k' });
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const noise = (n) => {
    const b = new Uint8Array(n);
    for (let i = 0; i < n; i += 65536) crypto.getRandomValues(b.subarray(i, Math.min(n, i + 65536)));
    return b;
  };
  const done = (tx) => new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  const asked = (r) => new Promise((resolve) => { r.onsuccess = () => resolve(r.result); });
  if (step === 'fill') {
    const tx = db.transaction('heads', 'readwrite');
    for (let k = 0; k < records; k++) tx.objectStore('heads').put({ k, v: noise(bytes) });
    await done(tx);
    db.close();
    return {};
  }
  const keys = paged ? null : Array.from({ length: reads }, (_, i) => Math.floor((i * records) / reads) + (i % 7));
  let t = performance.now();
  const tx = db.transaction('heads', 'readonly');
  const store = tx.objectStore('heads');
  const got = paged ? await asked(store.getAll()) : await Promise.all(keys.map((k) => asked(store.get(k))));
  const read = performance.now() - t;
  t = performance.now();
  const wtx = db.transaction('heads', 'readwrite');
  for (const row of got.slice(0, writes)) {
    row.v = noise(row.v.length);
    wtx.objectStore('heads').put(row);
  }
  await done(wtx);
  const write = performance.now() - t;
  db.close();
  return { read: Math.round(read), write: Math.round(write), n: got.length };
}`;

const server = createServer((_req, res) => {
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><title>heads</title>');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const profile = mkdtempSync(path.join(tmpdir(), 'idb-head-pages-'));
const context = await launchChromium(profile);
try {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  const fill = (shape: object) => page.evaluate(`(${DAY})(${JSON.stringify({ shape, step: 'fill' })})`);
  for (const shape of Object.values(SHAPES)) await fill(shape);
  for (let round = 1; round <= ROUNDS; round++)
    for (const [name, shape] of Object.entries(SHAPES)) {
      await waitUntilQuiet(chromiumSeconds);
      const before = cpuSeconds(undefined);
      const took = await page.evaluate(`(${DAY})(${JSON.stringify({ shape, step: 'day' })})`);
      const quiet = await waitUntilQuiet(chromiumSeconds);
      const cpu = describeCpu(roundCpu(cpuDelta(before, cpuSeconds(undefined)), 2));
      process.stdout.write(
        `round ${round}, ${name}: ${JSON.stringify(took)} ms; until quiet (${quiet.waitedMs} ms`,
      );
      process.stdout.write(` more), CPU s by process: ${cpu}\n`);
    }
} finally {
  await context.close();
  server.close();
  rmSync(profile, { recursive: true, force: true });
}
