import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../outbox.ts';
import { UnfinishedOps } from './unfinished.ts';

const op = (id: string, fromOps: string[]): OutboxOp =>
  ({
    id,
    op: { kind: 'email.add', userid: 0, email: `${id}@example.com` },
    ...(fromOps.length > 0 ? { bindings: fromOps.map((fromOp) => ({ fromOp, field: 'userid' })) } : {}),
  }) as OutboxOp;

const ids = (ops: OutboxOp[]) => ops.map((o) => o.id).sort();

describe("the engine's unfinished ops", () => {
  it('finds the ops waiting for a create, and only those', () => {
    const ops = new UnfinishedOps();
    ops.set(op('e1', ['a']));
    ops.set(op('e2', ['b']));
    ops.set(op('g', ['a', 'b']));
    ops.set(op('other', []));
    expect(ids(ops.boundTo('a'))).toEqual(['e1', 'g']);
    expect(ids(ops.boundTo('b'))).toEqual(['e2', 'g']);
    expect(ops.boundTo('other')).toEqual([]);
  });

  it('an op whose binding was filled in no longer waits for that create', () => {
    const ops = new UnfinishedOps();
    ops.set(op('g', ['a', 'b']));
    ops.set(op('g', ['b']));
    expect(ops.boundTo('a')).toEqual([]);
    expect(ids(ops.boundTo('b'))).toEqual(['g']);
  });

  it('an op that leaves (done or discarded) waits for nothing', () => {
    const ops = new UnfinishedOps();
    ops.set(op('e1', ['a']));
    ops.set(op('e2', ['a']));
    ops.delete('e1');
    expect(ids(ops.boundTo('a'))).toEqual(['e2']);
    expect(ops.get('e1')).toBeUndefined();
  });

  it('the latest version of an op is the one handed back', () => {
    const ops = new UnfinishedOps();
    ops.set(op('e1', ['a']));
    const newer = { ...op('e1', ['a']), attempts: 2 };
    ops.set(newer);
    expect(ops.boundTo('a')).toEqual([newer]);
  });
});
