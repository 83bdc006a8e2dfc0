/**
 * Undo after apply against the real reference server, with every fault mode on
 * and the replay host killed at random moments, for the batch and for its undo:
 * once the undo is replayed the server holds exactly what it held before the
 * batch, except what the API cannot reverse (listed below) and the record
 * changed behind the client's back (a conflict the user did not revert).
 *
 * What the API cannot reverse, and what this test expects instead:
 * - a created person cannot be deleted: they stay, set Inactive (the offer taken);
 * - nothing else in the mixed scenario: e-mails added are removed by their new
 *   id, grants revoked, revocations re-granted, created assignments removed,
 *   removed assignments re-created with their dates and number, status and
 *   name changes put back, new training assignments removed.
 */
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tokenFor, type RunningServer, type Snapshot } from '../../server/index.ts';
import type { RecordState } from '../../shared/ipc.ts';
import { ApiClient } from '../api/client.ts';
import { openOutboxOnlyDb, type OutboxDb } from '../../shared/replay-queue/db.ts';
import { OutboxEngine, type ReplayExecutor } from '../../shared/replay-queue/engine.ts';
import { enqueueOps, type OpDraft } from '../../shared/replay-queue/queue.ts';
import { judgeUndo, readsOf, undoCounts, undoDrafts, undoLines } from '../../shared/undo/plan.ts';
import { executeReplay } from './index.ts';
import { readCurrent } from './current.ts';
import { comparable, mixedScenario, seeded, stateOf } from '../testing/scenario.ts';

const KILLS = 12;
const FAULTS = {
  latencyMs: 1,
  errorRate: 0.13,
  dropRate: 0.06,
  lostResponseRate: 0.1,
  maxInFlightPerToken: 3,
  retryAfterSeconds: 0,
  seed: 17,
};
const NO_FAULTS = { errorRate: 0, dropRate: 0, lostResponseRate: 0, maxInFlightPerToken: 0, latencyMs: 0 };
const NEW_USERS = 5;

/**
 * Credential assignments in full (stateOf compares expiration only): re-created ones must carry their dates and number.
 */
function assignmentsOf(snapshot: Snapshot): string[] {
  const name = new Map(snapshot.users.map((u) => [u.userid, u.username.toLowerCase()]));
  return snapshot.credentialAssignments
    .map(
      (c) =>
        `${c.credentialid}-${name.get(c.userid)}|${c.startdate}|${c.expirationdate}|${c.credentialnumber}`,
    )
    .sort();
}

/**
 * The app records a removed assignment's before-image when it queues the removal (single-edit.ts); the scenario's
 * drafts get the same.
 */
function withBeforeImages(drafts: OpDraft[], snapshot: Snapshot): OpDraft[] {
  const held = new Map(snapshot.credentialAssignments.map((c) => [`${c.credentialid}-${c.userid}`, c]));
  return drafts.map((draft) => {
    if (draft.op.kind !== 'credentialAssignment.delete') return draft;
    const c = held.get(`${draft.op.credentialid}-${draft.op.userid}`)!;
    return {
      ...draft,
      base: {
        startdate: c.startdate,
        expirationdate: c.expirationdate,
        credentialnumber: c.credentialnumber,
        notes: c.notes,
      },
    };
  });
}

describe('undo after apply under faults and crashes', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ dataset: 'demo', admin: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(
    'puts the server back as it was before the batch, but for what the API cannot reverse and a conflict left alone',
    { timeout: 240_000 },
    async () => {
      const before = server.snapshot();
      const scenario = mixedScenario(server, { users: 80, newUsers: NEW_USERS, seed: 23 });
      const db: OutboxDb = openOutboxOnlyDb('undo-integration');
      const client = new ApiClient({
        baseUrl: server.baseUrl,
        token: tokenFor(server, 'full'),
        timeoutMs: 5_000,
        sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 5))),
      });
      const execute: ReplayExecutor = async (req, signal) => ({
        ok: true,
        value: await executeReplay(client, req, signal),
      });
      const random = seeded(5);

      /** Replays the queue under faults, killing the host KILLS times, then lets a last one finish. */
      const replayWithKills = async () => {
        const open = () =>
          OutboxEngine.open({
            db,
            execute,
            actor: 'integration',
            concurrency: 4,
            backoff: { baseMs: 2, maxMs: 40 },
            random,
          });
        server.setFaults(FAULTS);
        let midFlight = 0;
        for (let kill = 0; kill < KILLS; kill++) {
          const engine = await open();
          engine.setOnline(true);
          await new Promise((r) => setTimeout(r, 10 + random() * 120));
          for (let waited = 0; engine.state().inFlight === 0 && waited < 2_000; waited += 1)
            await new Promise((r) => setTimeout(r, 1));
          if (engine.state().inFlight > 0) midFlight += 1;
          await engine.kill();
        }
        const survivor = await open();
        survivor.setOnline(true);
        await survivor.whenIdle();
        server.setFaults(NO_FAULTS);
        return midFlight;
      };

      // the batch, applied
      const applied = await enqueueOps(db, withBeforeImages(scenario.drafts, before), { batchId: 'batch' });
      expect(await replayWithKills()).toBeGreaterThanOrEqual(KILLS / 2);
      const afterApply = await db.outbox.toArray();
      // every op applied, but removals of assignments holding attachments, which the server refuses (1004): never
      // applied, nothing to undo
      const refused = afterApply.filter((op) => op.status !== 'done');
      expect(refused.map((op) => `${op.op.kind} ${op.lastError?.statuscode ?? op.status}`)).toEqual(
        refused.map(() => 'credentialAssignment.delete 1004'),
      );

      // behind the client's back: one person's status changed after the batch
      // (a person the batch changed the status of once: with two status changes both undo lines meet the change, and
      // the outbox's order is its random ids', so the choice is made in queue order)
      const statusChanges = afterApply
        .filter((op) => op.op.kind === 'user.update' && 'status' in op.op.changes)
        .sort((a, b) => a.seq - b.seq);
      const userOf = (op: (typeof afterApply)[number]) => (op.op.kind === 'user.update' ? op.op.userid : 0);
      const changedOnce = (op: (typeof afterApply)[number]) =>
        statusChanges.filter((other) => userOf(other) === userOf(op)).length === 1;
      const changedBehind = statusChanges.find((op) => op.seq > applied[20]!.seq && changedOnce(op))!;
      const behindId = userOf(changedBehind);
      expect(server.mutate({ resource: 'user', id: behindId, changes: { status: 'Pending' } })).toBe(true);

      // the preview reads every record from the server
      const lines = undoLines(afterApply);
      const now = new Map<string, RecordState>();
      for (const [key, op] of readsOf(lines)) now.set(key, await readCurrent(client, op));
      const offers = new Set(
        lines.filter((l) => l.reversal?.kind === 'irreversible' && l.reversal.offer).map((l) => l.op.id),
      );
      const judged = judgeUndo(lines, now, { force: new Set(), offers });
      const counts = undoCounts(judged);
      expect(counts).toMatchObject({ irreversible: NEW_USERS, notApplied: refused.length, unknown: 0 });
      expect(offers.size).toBe(NEW_USERS);
      expect(judged.filter((j) => j.verdict === 'conflict').map((j) => j.line.op.id)).toEqual([
        changedBehind.id,
      ]);
      expect(judged.find((j) => j.verdict === 'conflict')!.compare).toEqual([
        {
          field: 'status',
          base: changedBehind.base['status'],
          applied: (changedBehind.op as { changes: { status: string } }).changes.status,
          now: 'Pending',
        },
      ]);

      // the undo: a batch of its own, linked to the one it undoes, replayed under the same faults and kills
      const undo = await enqueueOps(db, undoDrafts(judged), { batchId: 'undo', undoes: 'batch' });
      expect(undo.length).toBe(counts.revert + NEW_USERS);
      expect(await replayWithKills()).toBeGreaterThanOrEqual(KILLS / 2);
      const undone = (await db.outbox.toArray()).filter((op) => op.batchId === 'undo');
      expect(
        undone
          .filter((op) => op.status !== 'done')
          .map((op) => `${op.summary}: ${op.status} ${op.lastError?.message ?? ''}`),
      ).toEqual([]);
      expect(undone.every((op) => op.undoes === 'batch')).toBe(true);
      const audit = (await db.audit.toArray()).filter((e) => e.batchId === 'undo' && e.outcome === 'done');
      expect(new Set(audit.map((e) => e.opId)).size).toBe(undo.length);
      expect(audit.length).toBe(undo.length);
      expect(audit.every((e) => e.undoes === 'batch')).toBe(true);

      // the server as before, except: the created people stay (Inactive), and the conflict was left as it was found
      const expected = stateOf(before);
      for (const op of afterApply) {
        if (op.op.kind !== 'user.create') continue;
        const f = op.op.fields;
        expected.users.set(
          f.username.toLowerCase(),
          `${op.op.siteid}|Inactive|${f.firstname}|${f.lastname}|${f.employeeid ?? ''}`,
        );
      }
      const behind = before.users.find((u) => u.userid === behindId)!;
      expected.users.set(
        behind.username.toLowerCase(),
        `${behind.siteid}|Pending|${behind.firstname}|${behind.lastname}|${behind.employeeid}`,
      );
      const end = server.snapshot();
      expect(comparable(stateOf(end))).toEqual(comparable(expected));
      expect(assignmentsOf(end)).toEqual(assignmentsOf(before));
      db.close();
    },
  );
});
