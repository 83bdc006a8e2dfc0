import { describe, expect, it } from 'vitest';
import { statusOp } from '../../../shared/testing/test-ops.ts';
import {
  alikeConflicts,
  batchActions,
  batchesOf,
  batchState,
  conflictFieldsOf,
  statusCounts,
  waitingSummary,
  withOnItsWay,
} from './view-model.ts';

describe('the Outbox view', () => {
  it('summarises each batch, newest first, with counts per status', () => {
    const ops = [
      statusOp(1, 'X', { batchId: 'a' }),
      statusOp(2, 'X', { batchId: 'a', status: 'done' }),
      statusOp(3, 'X', { batchId: 'b' }),
    ];
    const batches = batchesOf(ops);
    expect(batches.map((b) => b.batchId)).toEqual(['b', 'a']);
    expect(batches[1]).toMatchObject({ total: 2, counts: { pending: 1, done: 1 } });
    expect(statusCounts(ops)).toMatchObject({ pending: 2, done: 1 });
  });

  it('names a batch by the name it was queued with (an import by its file)', () => {
    const ops = [
      statusOp(1, 'X', { batchId: 'a', batchLabel: 'Import of staff.xlsx' }),
      statusOp(2, 'X', { batchId: 'b' }),
    ];
    expect(batchesOf(ops).map((b) => b.label)).toEqual([undefined, 'Import of staff.xlsx']);
  });

  it("says a batch's state in counts, sent first, in the coordinator's words", () => {
    expect(batchState({ total: 48, counts: { done: 45, pending: 2, conflict: 1 } })).toBe(
      '48 changes: 45 sent, 2 waiting, 1 conflict',
    );
    expect(batchState({ total: 1, counts: { 'needs-review': 1 } })).toBe('1 change: 1 to review');
    expect(batchState({ total: 1204, counts: { done: 1200, conflict: 4 } })).toBe(
      '1,204 changes: 1,200 sent, 4 conflicts',
    );
  });

  it('offers on a batch only the actions that do something', () => {
    expect(batchActions({ counts: { done: 40 } })).toEqual({ retry: false, discard: false, undo: true });
    expect(batchActions({ counts: { 'needs-review': 2, done: 1 } })).toEqual({
      retry: true,
      discard: true,
      undo: true,
    });
    expect(batchActions({ counts: { pending: 3 } })).toEqual({ retry: false, discard: true, undo: false });
    expect(batchActions({ counts: { conflict: 1 } })).toEqual({ retry: false, discard: true, undo: false });
    // being sent right now: nothing can be done to it from here
    expect(batchActions({ counts: { sending: 5 } })).toEqual({ retry: false, discard: false, undo: false });
  });
});

describe('the Conflict view', () => {
  const conflict = (userid: number, theirs: string) =>
    statusOp(userid, 'Inactive', {
      status: 'conflict',
      base: { status: 'Active' },
      theirs: { status: theirs },
      conflictFields: ['status'],
    });

  it('shows base, mine and theirs of each field in conflict', () => {
    expect(conflictFieldsOf(conflict(1, 'Offline'))).toEqual([
      { field: 'status', base: 'Active', mine: 'Inactive', theirs: 'Offline' },
    ]);
  });

  it("shows a removal's side as the record removed", () => {
    const removal = statusOp(1, 'X', {
      op: { kind: 'credentialAssignment.delete', credentialid: 9, userid: 1 },
      status: 'conflict',
      base: { expirationdate: '2028-06-30' },
      theirs: { expirationdate: '2029-06-30' },
      conflictFields: ['expirationdate'],
    });
    expect(conflictFieldsOf(removal)).toEqual([
      { field: 'expirationdate', base: '2028-06-30', mine: '(removed)', theirs: '2029-06-30' },
    ]);
  });

  it('finds the conflicts alike, to resolve them all at once', () => {
    const ops = [conflict(1, 'Offline'), conflict(2, 'offline'), conflict(3, 'Expired')];
    expect(alikeConflicts(ops, ops[0]!).map((op) => op.op)).toEqual([ops[0]!.op, ops[1]!.op]);
  });
});

describe('the changes on their way', () => {
  it('read "Sending", and count as such, while the engine sends them, though stored as waiting', () => {
    const ops = [statusOp(1, 'X'), statusOp(2, 'X'), statusOp(3, 'X', { status: 'conflict' })];
    const shown = withOnItsWay(ops, new Set([ops[1]!.id, ops[2]!.id]));
    expect(shown.map((op) => op.status)).toEqual(['pending', 'sending', 'conflict']);
    expect(statusCounts(shown)).toMatchObject({ pending: 1, sending: 1, conflict: 1 });
  });

  it('leave the list as it is when nothing is on its way', () => {
    const ops = [statusOp(1, 'X')];
    expect(withOnItsWay(ops, new Set())).toBe(ops);
    expect(withOnItsWay(ops, new Set(['elsewhere']))).toBe(ops);
  });
});

describe("the Outbox's line of what is waiting", () => {
  const none = { pending: 0, sending: 0, done: 0, failed: 0, conflict: 0, 'needs-review': 0 };

  it('says only the parts that count something', () => {
    expect(waitingSummary({ ...none, pending: 13, sending: 1, done: 5 })).toBe('14 to send.');
    expect(waitingSummary({ ...none, conflict: 1, 'needs-review': 2, failed: 12 })).toBe(
      '1 in conflict, 14 to review.',
    );
  });

  it('says nothing is waiting when every change is done', () => {
    expect(waitingSummary({ ...none, done: 40 })).toBe('Nothing waiting to be sent.');
  });
});
