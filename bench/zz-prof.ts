import 'fake-indexeddb/auto';
import { Worker } from 'node:worker_threads';
import { ApiClient } from '../src/main/api/client.ts';
import { executeReplay } from '../src/main/replay/index.ts';
import { openOutboxOnlyDb } from '../src/shared/replay-queue/db.ts';
import { OutboxEngine } from '../src/shared/replay-queue/engine.ts';
import { enqueueOps } from '../src/shared/replay-queue/queue.ts';
import type { Snapshot } from '../src/server/index.ts';
const worker = new Worker(new URL('./replay.bench.ts', import.meta.url), { workerData: { role: 'replay-server', dataset: 'm' } });
const server = await new Promise<{ baseUrl: string; token: string; users: Snapshot['users'] }>((r) => worker.once('message', r));
const client = new ApiClient({ baseUrl: server.baseUrl, token: server.token });
const users = server.users.filter((u) => u.siteid < 900).slice(0, 3000);
const db = openOutboxOnlyDb('p');
const tog = (s: string) => (s === 'Active' ? 'Inactive' : 'Active');
const engine = await OutboxEngine.open({ db, actor: 'b', execute: async (req, signal) => ({ ok: true, value: await executeReplay(client, req, signal) }) });
engine.setOnline(true);
for (const [from, to] of [[0, 300], [300, 3000]] as const) {
  const slice = users.slice(from, to);
  let t = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => { while (next < slice.length) { const u = slice[next++]!; await client.request('PUT', `/users/${u.userid}`, { body: { status: tog(u.status) } }); } }));
  if (from > 0) { console.profile?.(); }
  const floor = slice.length / ((performance.now() - t) / 1000);
  await enqueueOps(db, slice.map((u) => ({ op: { kind: 'user.update' as const, userid: u.userid, changes: { status: u.status } }, base: { status: tog(u.status) }, summary: 'x' })));
  t = performance.now();
  await engine.reload();
  await engine.whenIdle();
  console.log('floor', Math.round(floor), 'engine', Math.round(slice.length / ((performance.now() - t) / 1000)));
}
await engine.kill();
await worker.terminate();
