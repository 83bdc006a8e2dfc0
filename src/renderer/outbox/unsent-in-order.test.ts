/**
 * The unsent ops worked a slice at a time (a queue of 100,000 ops is never one
 * long task) give exactly what the views' one-go `unsentOps` gives.
 */
import { describe, expect, it } from 'vitest';
import { outboxOp, statusOp } from '../../shared/testing/test-ops.ts';
import { emailsApplier, unsentOps, usersApplier } from './pending.ts';
import { appliedInSlices, unsentInSlices } from './unsent-in-order.ts';

/**
 * A file's import: each person created, then their e-mail bound to the create; queued out of order, with done ops among
 * them.
 */
function importedOps(people: number) {
  const ops = [];
  for (let i = 0; i < people; i++) {
    const create = outboxOp(
      { kind: 'user.create', siteid: 1, fields: { username: `p${i}`, firstname: 'P', lastname: `${i}` } },
      { seq: 2 * i + 1 },
    );
    const email = outboxOp(
      { kind: 'email.add', userid: 0, email: `p${i}@example.test` },
      { seq: 2 * i + 2, bindings: [{ fromOp: create.id, field: 'userid' }] },
    );
    ops.push(email, create);
  }
  ops.push(statusOp(7, 'Inactive', { seq: 0, status: 'done' }));
  return ops.reverse();
}

describe('the unsent ops in queue order, a slice at a time', () => {
  it('are those unsentOps gives: done ops left out, in queue order, bound to the people created offline', async () => {
    const ops = importedOps(1500);
    const inOrder = await unsentInSlices(ops);
    expect(inOrder).toEqual(unsentOps(ops));
    expect(inOrder.map((op) => op.seq)).toEqual(Array.from({ length: 3000 }, (_, i) => i + 1));
    expect(inOrder[1]?.op).toMatchObject({ kind: 'email.add', userid: -1 });
  });

  it('apply to people and their e-mails as the one-go functions do', async () => {
    const ops = importedOps(500);
    const inOrder = await unsentInSlices(ops);
    const people = await appliedInSlices(usersApplier([]), inOrder);
    const emails = await appliedInSlices(emailsApplier([]), inOrder);
    expect(people.map((u) => [u.userid, u.username])).toEqual(
      inOrder
        .filter((op) => op.op.kind === 'user.create')
        .map((op) => [-op.seq, op.op.kind === 'user.create' && op.op.fields.username]),
    );
    expect(emails.find((e) => e.email === 'p0@example.test')?.userid).toBe(-1);
  });
});
