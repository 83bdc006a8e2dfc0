/**
 * A create's new id reaches the ops bound to it (the engine finds them through an index, unfinished.ts), and only
 * those, after the queue changed under the engine too.
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { OpSpec, ReplayOutcome, ReplayRequest, Result } from '../ipc.ts';
import type { OutboxDb } from './db.ts';
import { outboxDbsClosedAfterEach } from '../testing/outbox-dbs.ts';
import { OutboxEngine } from './engine.ts';
import { discardOps, enqueueOps, retryOps, type OpDraft } from './queue.ts';

const freshDb = outboxDbsClosedAfterEach('engine-bindings-test');

const create = (id: string): OpDraft => ({
  id,
  op: { kind: 'user.create', siteid: 101, fields: { username: id, firstname: id, lastname: 'Ray' } },
  summary: `create ${id}`,
});
const emailOf = (id: string, person: string): OpDraft => ({
  id,
  op: { kind: 'email.add', userid: 0, email: `${id}@example.com` },
  dependsOn: [person],
  bindings: [{ fromOp: person, field: 'userid' }],
  summary: `add ${id}`,
});

/** The platform: each create gets the next new id (501, 502...); `refuse` answers "needs review" once per op. */
function platform(refuseOnce: readonly string[] = []) {
  const sent: ReplayRequest[] = [];
  const newIds = new Map<string, number>();
  const refused = new Set<string>();
  const execute = async (req: ReplayRequest): Promise<Result<ReplayOutcome>> => {
    sent.push(req);
    if (refuseOnce.includes(req.opId) && !refused.has(req.opId)) {
      refused.add(req.opId);
      const error = { code: 'rejected' as const, message: 'refused', statuscode: 1001 };
      return { ok: true, value: { status: 'needs-review', error } };
    }
    if (req.op.kind !== 'user.create') return { ok: true, value: { status: 'done' } };
    newIds.set(req.opId, 501 + newIds.size);
    return { ok: true, value: { status: 'done', createdId: newIds.get(req.opId)! } };
  };
  const useridSentFor = (opId: string) => {
    const op: OpSpec | undefined = sent.find((r) => r.opId === opId)?.op;
    return op && 'userid' in op ? op.userid : undefined;
  };
  return { execute, sent, newIds, useridSentFor };
}

async function openOffline(db: OutboxDb, execute: ReturnType<typeof platform>['execute']) {
  return OutboxEngine.open({ db, execute, actor: 'c', backoff: { baseMs: 1, maxMs: 5 } });
}

describe("a create's new id", () => {
  it('is sent in every op bound to that create, and in no other', async () => {
    const db = freshDb();
    await enqueueOps(db, [
      create('ann'),
      create('bo'),
      emailOf('ann-mail', 'ann'),
      emailOf('bo-mail', 'bo'),
      emailOf('ann-work', 'ann'),
    ]);
    const api = platform();
    const engine = await openOffline(db, api.execute);
    engine.setOnline(true);
    await engine.whenIdle();
    expect(api.useridSentFor('ann-mail')).toBe(api.newIds.get('ann'));
    expect(api.useridSentFor('ann-work')).toBe(api.newIds.get('ann'));
    expect(api.useridSentFor('bo-mail')).toBe(api.newIds.get('bo'));
    expect((await db.outbox.toArray()).every((op) => op.status === 'done')).toBe(true);
  });

  it('does not bring back an op discarded before its create was sent', async () => {
    const db = freshDb();
    await enqueueOps(db, [create('ann'), emailOf('ann-mail', 'ann'), emailOf('ann-work', 'ann')]);
    const api = platform();
    const engine = await openOffline(db, api.execute);
    await discardOps(db, ['ann-work'], 'c');
    await engine.reload();
    engine.setOnline(true);
    await engine.whenIdle();
    expect(api.sent.map((r) => r.opId)).toEqual(['ann', 'ann-mail']);
    expect(await db.outbox.get('ann-work')).toBeUndefined();
  });

  it('reaches the ops bound to a create that was refused, then retried', async () => {
    const db = freshDb();
    await enqueueOps(db, [create('ann'), emailOf('ann-mail', 'ann')]);
    const api = platform(['ann']);
    const engine = await openOffline(db, api.execute);
    engine.setOnline(true);
    await engine.whenIdle();
    expect((await db.outbox.get('ann'))?.status).toBe('needs-review');
    await retryOps(db, ['ann']);
    await engine.reload();
    await engine.whenIdle();
    expect(api.useridSentFor('ann-mail')).toBe(api.newIds.get('ann'));
    expect((await db.outbox.get('ann-mail'))?.status).toBe('done');
  });
});
