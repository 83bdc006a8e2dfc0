import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../outbox.ts';
import { RunnableLanes } from './lanes.ts';
import { outboxOp, statusOp } from '../testing/test-ops.ts';

const now = Date.parse('2026-01-01T00:00:00Z');
const free = { now, busyTargets: new Set<string>(), capacity: 10 };

/** Lanes over a mutable set of ops, as the engine keeps them. */
async function lanesOver(ops: OutboxOp[]) {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const lanes = new RunnableLanes((id) => byId.get(id));
  await lanes.rebuild(ops);
  const update = (op: OutboxOp) => {
    if (op.status === 'done') byId.delete(op.id);
    else byId.set(op.id, op);
    lanes.changed(op);
  };
  return { lanes, update };
}

const ids = (ops: readonly OutboxOp[]) => ops.map((op) => op.id);

describe('the engine index of what may run next', () => {
  it('offers only the first op of each target, lowest queue position first', async () => {
    const first = statusOp(1, 'Inactive');
    const other = statusOp(2, 'Inactive');
    const second = statusOp(1, 'Active');
    const { lanes } = await lanesOver([second, other, first]);
    expect(ids(lanes.take(free).ready)).toEqual([first.id, other.id]);
  });

  it("moves a target on to its next op once the first one's outcome is recorded", async () => {
    const first = statusOp(1, 'Inactive');
    const second = statusOp(1, 'Active');
    const { lanes, update } = await lanesOver([first, second]);
    expect(ids(lanes.take(free).ready)).toEqual([first.id]);
    expect(lanes.take(free).ready).toEqual([]);
    update({ ...first, status: 'done' });
    expect(ids(lanes.take(free).ready)).toEqual([second.id]);
  });

  it("starts a user's grant only when the create it depends on is done", async () => {
    const create = outboxOp({
      kind: 'user.create',
      siteid: 101,
      fields: { username: 'new', firstname: 'N', lastname: 'U' },
    });
    const grant = outboxOp(
      { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 0 },
      { dependsOn: [create.id], targetKey: 'groupAccess:new' },
    );
    const { lanes, update } = await lanesOver([create, grant]);
    expect(ids(lanes.take(free).ready)).toEqual([create.id]);
    update({ ...create, status: 'done' });
    expect(ids(lanes.take(free).ready)).toEqual([grant.id]);
  });

  it('treats a dependency no longer in the outbox as done (cleared after success)', async () => {
    const grant = outboxOp(
      { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 9 },
      { dependsOn: ['gone'] },
    );
    const { lanes } = await lanesOver([grant]);
    expect(ids(lanes.take(free).ready)).toEqual([grant.id]);
  });

  it('keeps a target behind a parked op until a person decides', async () => {
    const parked = statusOp(1, 'Inactive', { status: 'needs-review' });
    const later = statusOp(1, 'Active');
    const { lanes, update } = await lanesOver([parked, later]);
    expect(lanes.take(free).ready).toEqual([]);
    update({ ...parked, status: 'pending' });
    expect(ids(lanes.take(free).ready)).toEqual([parked.id]);
  });

  it('says when the first op waiting out a backoff may go, and offers it then', async () => {
    const waiting = statusOp(1, 'Inactive', { nextAttemptAt: '2026-01-01T00:00:05Z' });
    const { lanes } = await lanesOver([waiting]);
    expect(lanes.take(free)).toEqual({ ready: [], wakeAt: Date.parse('2026-01-01T00:00:05Z') });
    expect(ids(lanes.take({ ...free, now: now + 6_000 }).ready)).toEqual([waiting.id]);
  });

  it('offers no more than the free capacity, and the rest at the next pick', async () => {
    const ops = [statusOp(1, 'A'), statusOp(2, 'A'), statusOp(3, 'A')];
    const { lanes } = await lanesOver(ops);
    expect(ids(lanes.take({ ...free, capacity: 2 }).ready)).toEqual([ops[0]!.id, ops[1]!.id]);
    expect(ids(lanes.take(free).ready)).toEqual([ops[2]!.id]);
  });

  it('looks at a busy target again when it is woken after its op ends', async () => {
    const op = statusOp(1, 'A');
    const { lanes } = await lanesOver([op]);
    expect(lanes.take({ ...free, busyTargets: new Set([op.targetKey]) }).ready).toEqual([]);
    lanes.wake(op.targetKey);
    expect(ids(lanes.take(free).ready)).toEqual([op.id]);
  });
  it('puts an op it did not know in its queue position on its target: after the others when queued last', async () => {
    // an op written back after a discard elsewhere lands between two; one just queued lands after all of them
    const [first, between, third, last] = ['Inactive', 'Active', 'Leave', 'Inactive'].map((s) =>
      statusOp(1, s),
    );
    const { lanes, update } = await lanesOver([first!, third!]);
    update(between!);
    update(last!);
    const sent: string[] = [];
    for (let round = 0; round < 4; round += 1)
      for (const op of lanes.take(free).ready) {
        sent.push(op.id);
        update({ ...op, status: 'done' });
      }
    expect(sent).toEqual(ids([first!, between!, third!, last!]));
  });
  it('offers an op changed while last on its target once, then frees the target (a retry written back)', async () => {
    const first = statusOp(1, 'Inactive');
    const last = statusOp(1, 'Active');
    const { lanes, update } = await lanesOver([first, last]);
    update({ ...last, attempts: 1, lastError: { code: 'network', message: 'unreachable' } });
    const sent: string[] = [];
    const sendAll = () => {
      for (let round = 0; round < 4; round += 1)
        for (const op of lanes.take(free).ready) {
          sent.push(op.id);
          update({ ...op, status: 'done' });
        }
    };
    sendAll();
    // and the target is free for what is queued on it next
    const next = statusOp(1, 'Leave');
    update(next);
    sendAll();
    expect(sent).toEqual(ids([first, last, next]));
  });
});

describe('the index built a slice at a time', () => {
  it('holds every op once, each target in queue order, however the slices fall', async () => {
    // 30 targets of 3 ops each, read in no particular order, the work yielding before every op
    const ops = Array.from({ length: 90 }, (_, i) => statusOp(i % 30, i < 30 ? 'Inactive' : 'Active'));
    const shuffled = [...ops].sort((a, b) =>
      a.id.split('').reverse().join('') < b.id.split('').reverse().join('') ? -1 : 1,
    );
    const byId = new Map(ops.map((op) => [op.id, op]));
    const lanes = new RunnableLanes((id) => byId.get(id));
    let yields = 0;
    const yieldNow = async () => {
      yields += 1;
    };
    expect(await lanes.rebuild(shuffled, { budgetMs: 0, checkEvery: 1, yieldNow })).toBe(true);
    expect(yields).toBeGreaterThan(90);
    const sent: string[] = [];
    for (let round = 0; round < 10; round += 1) {
      for (const op of lanes.take(free).ready) {
        sent.push(op.id);
        byId.delete(op.id);
        lanes.changed({ ...op, status: 'done' });
      }
    }
    expect([...sent].sort()).toEqual(ids(ops).sort());
    const targetOrder = (target: string) =>
      sent.filter((id) => ops.find((op) => op.id === id)!.targetKey === target);
    for (const target of new Set(ops.map((op) => op.targetKey)))
      expect(targetOrder(target)).toEqual(ids(ops.filter((op) => op.targetKey === target)));
  });
});
