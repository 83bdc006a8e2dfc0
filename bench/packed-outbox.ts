/**
 * The outbox's packed batch (shared/replay-queue/packs.ts) in Node over fake-indexeddb: a relative figure, not the
 * browser's. Discarding a whole batch (the Outbox's batch discard), and replaying it through the engine, packed
 * against stored op by op. Usage: `node --experimental-strip-types --no-warnings bench/packed-outbox.ts discard|replay
 * [ops]`; prints one line of JSON per case.
 */
import 'fake-indexeddb/auto';
import { loadavg } from 'node:os';
import { openOutboxOnlyDb, type OutboxDb } from '../src/shared/replay-queue/db.ts';
import { discardOps, enqueueOps } from '../src/shared/replay-queue/queue.ts';
import { OutboxEngine } from '../src/shared/replay-queue/engine.ts';
import { statusDrafts } from '../src/shared/testing/test-ops.ts';

let dbs = 0;
const freshDb = (): OutboxDb => openOutboxOnlyDb(`packed-outbox-bench-${++dbs}`);
const load = () => loadavg()[0]!.toFixed(1);

async function timed(run: () => Promise<unknown>): Promise<{ ms: number; cpuMs: number }> {
  const [start, cpu] = [performance.now(), process.cpuUsage()];
  await run();
  const used = process.cpuUsage(cpu);
  return { ms: Math.round(performance.now() - start), cpuMs: Math.round((used.user + used.system) / 1000) };
}

/** Discards every op of a batch of `count` (the Outbox's "Discard batch"). */
async function discardBatch(count: number, packed: boolean) {
  const db = freshDb();
  const ops = await enqueueOps(db, statusDrafts(count), { packed });
  const figure = await timed(() =>
    discardOps(
      db,
      ops.map((op) => op.id),
      'bench',
    ),
  );
  const left = (await db.outbox.count()) + (await db.outboxPacks.count());
  db.close();
  return { case: 'discard', packed, ops: count, ...figure, left, load: load() };
}

/** Replays a batch of `count` through the engine, every op answered done at once. */
async function replayBatch(count: number, packed: boolean) {
  const db = freshDb();
  await enqueueOps(db, statusDrafts(count), { packed });
  let sent = 0;
  const figure = await timed(async () => {
    const engine = await OutboxEngine.open({
      db,
      actor: 'bench',
      execute: async () => {
        sent += 1;
        return { ok: true, value: { status: 'done' } };
      },
    });
    engine.setOnline(true);
    await engine.whenIdle();
    await engine.kill();
  });
  db.close();
  return { case: 'replay', packed, ops: count, ...figure, sent, load: load() };
}

const [what = 'discard', size = '20000'] = process.argv.slice(2);
const count = Number(size);
const run = what === 'replay' ? replayBatch : discardBatch;
// alternated, so a change of the machine's load falls on both
for (const packed of [false, true, false, true]) console.log(JSON.stringify(await run(count, packed)));
