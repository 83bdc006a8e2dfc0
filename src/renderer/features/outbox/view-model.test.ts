import { describe, expect, it } from 'vitest';
import { statusOp } from '../../../shared/testing/test-ops.ts';
import { alikeConflicts, batchesOf, conflictFieldsOf, filterOps, statusCounts } from './view-model.ts';

describe('the Outbox view', () => {
  it('filters by status and by batch', () => {
    const ops = [statusOp(1, 'Inactive', { batchId: 'a' }), statusOp(2, 'Inactive', { batchId: 'b', status: 'done' })];
    expect(filterOps(ops, { status: 'done', batchId: 'all' }).map((op) => op.batchId)).toEqual(['b']);
    expect(filterOps(ops, { status: 'all', batchId: 'a' })).toHaveLength(1);
  });

  it('summarises each batch, newest first, with counts per status', () => {
    const ops = [statusOp(1, 'X', { batchId: 'a' }), statusOp(2, 'X', { batchId: 'a', status: 'done' }), statusOp(3, 'X', { batchId: 'b' })];
    const batches = batchesOf(ops);
    expect(batches.map((b) => b.batchId)).toEqual(['b', 'a']);
    expect(batches[1]).toMatchObject({ total: 2, counts: { pending: 1, done: 1 } });
    expect(statusCounts(ops)).toMatchObject({ pending: 2, done: 1 });
  });
});

describe('the Conflict view', () => {
  const conflict = (userid: number, theirs: string) =>
    statusOp(userid, 'Inactive', { status: 'conflict', base: { status: 'Active' }, theirs: { status: theirs }, conflictFields: ['status'] });

  it('shows base, mine and theirs of each field in conflict', () => {
    expect(conflictFieldsOf(conflict(1, 'Offline'))).toEqual([{ field: 'status', base: 'Active', mine: 'Inactive', theirs: 'Offline' }]);
  });

  it("shows a removal's side as the record removed", () => {
    const removal = statusOp(1, 'X', {
      op: { kind: 'credentialAssignment.delete', credentialid: 9, userid: 1 },
      status: 'conflict', base: { expirationdate: '2028-06-30' }, theirs: { expirationdate: '2029-06-30' }, conflictFields: ['expirationdate'],
    });
    expect(conflictFieldsOf(removal)).toEqual([{ field: 'expirationdate', base: '2028-06-30', mine: '(removed)', theirs: '2029-06-30' }]);
  });

  it('finds the conflicts alike, to resolve them all at once', () => {
    const ops = [conflict(1, 'Offline'), conflict(2, 'offline'), conflict(3, 'Expired')];
    expect(alikeConflicts(ops, ops[0]!).map((op) => op.op)).toEqual([ops[0]!.op, ops[1]!.op]);
  });
});
