import { describe, expect, it } from 'vitest';
import type { RecordState } from '../ipc.ts';
import type { OutboxOp } from '../outbox.ts';
import { outboxOp, statusOp } from '../testing/test-ops.ts';
import { judgeUndo, readsOf, undoCounts, undoDrafts, undoLines } from './plan.ts';

const user = (record: Record<string, unknown>): RecordState => ({ present: true, record });
const doneStatus = (userid: number, from: string, to: string, extra: Partial<OutboxOp> = {}) =>
  statusOp(userid, to, {
    status: 'done',
    base: { status: from },
    summary: `${userid}: ${from} → ${to}`,
    ...extra,
  });

describe('the undo preview', () => {
  it('reverts a record that still holds what the batch left', () => {
    const lines = undoLines([doneStatus(1, 'Active', 'Inactive')]);
    const judged = judgeUndo(lines, new Map([['user:1', user({ status: 'Inactive' })]]));
    expect(judged[0]!.verdict).toBe('revert');
    expect(undoDrafts(judged)).toEqual([
      {
        op: { kind: 'user.update', userid: 1, changes: { status: 'Active' } },
        base: { status: 'Inactive' },
        summary: 'Undo: 1: Active → Inactive',
      },
    ]);
  });

  it("names each op of the undo batch as the caller says (the renderer: what the undo does, in the undo's direction)", () => {
    const judged = judgeUndo(
      undoLines([doneStatus(1, 'Active', 'Inactive')]),
      new Map([['user:1', user({ status: 'Inactive' })]]),
    );
    expect(
      undoDrafts(
        judged,
        (_line, step) =>
          `Undo: status ${String(step.applied.fields['status'])} → ${String(step.before.fields['status'])}`,
      )[0]!.summary,
    ).toBe('Undo: status Inactive → Active');
  });

  it('shows a record changed since the batch was applied as a conflict with base, applied and now, and does not revert it', () => {
    const judged = judgeUndo(
      undoLines([doneStatus(1, 'Active', 'Inactive')]),
      new Map([['user:1', user({ status: 'Offline' })]]),
    );
    expect(judged[0]!.verdict).toBe('conflict');
    expect(judged[0]!.compare).toEqual([
      { field: 'status', base: 'Active', applied: 'Inactive', now: 'Offline' },
    ]);
    expect(undoDrafts(judged)).toEqual([]);
  });

  it('reverts a conflict when the user says so, checked against the value the user saw', () => {
    const lines = undoLines([doneStatus(1, 'Active', 'Inactive')]);
    const judged = judgeUndo(lines, new Map([['user:1', user({ status: 'Offline' })]]), {
      force: new Set([lines[0]!.op.id]),
      offers: new Set(),
    });
    expect(undoDrafts(judged)).toEqual([
      {
        op: { kind: 'user.update', userid: 1, changes: { status: 'Active' } },
        base: { status: 'Offline' },
        summary: 'Undo: 1: Active → Inactive',
      },
    ]);
  });

  it('sends nothing for a record already back as it was', () => {
    const judged = judgeUndo(
      undoLines([doneStatus(1, 'Active', 'Inactive')]),
      new Map([['user:1', user({ status: 'active' })]]),
    );
    expect(judged[0]!.verdict).toBe('already');
    expect(undoDrafts(judged)).toEqual([]);
  });

  it('undoes several changes of one record backwards, each judged against what the undo leaves', () => {
    const first = doneStatus(1, 'Active', 'Inactive');
    const second = doneStatus(1, 'Inactive', 'Active', { seq: first.seq + 1 });
    const judged = judgeUndo(undoLines([first, second]), new Map([['user:1', user({ status: 'Active' })]]));
    expect(judged.map((j) => j.verdict)).toEqual(['revert', 'revert']);
    expect(undoDrafts(judged).map((d) => d.op)).toEqual([
      { kind: 'user.update', userid: 1, changes: { status: 'Inactive' } },
      { kind: 'user.update', userid: 1, changes: { status: 'Active' } },
    ]);
  });

  it('treats a grant revoked meanwhile as already undone, and a created assignment whose dates changed as a conflict', () => {
    const grant = outboxOp(
      { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 1 },
      { status: 'done' },
    );
    const assign = outboxOp(
      {
        kind: 'credentialAssignment.create',
        credentialid: 3,
        userid: 1,
        fields: { expirationdate: '06/30/2028' },
      },
      { status: 'done' },
    );
    const lines = undoLines([grant, assign]);
    const reads = readsOf(lines);
    expect([...reads.keys()].sort()).toEqual(['credentialAssignment:3-1', 'groupAccess:5-1']);
    const judged = judgeUndo(
      lines,
      new Map<string, RecordState>([
        ['groupAccess:5-1', { present: false }],
        ['credentialAssignment:3-1', user({ expirationdate: '2029-01-01' })],
      ]),
    );
    expect(judged.map((j) => [j.line.op.op.kind, j.verdict])).toEqual([
      ['credentialAssignment.create', 'conflict'],
      ['groupAccess.grant', 'already'],
    ]);
  });

  it('lists ops never applied and ops the API cannot reverse, and queues a created person set Inactive only when chosen', () => {
    const created = outboxOp(
      { kind: 'user.create', siteid: 101, fields: { username: 'n', firstname: 'N', lastname: 'H' } },
      { status: 'done', createdId: 900 },
    );
    const pending = statusOp(2, 'Inactive', { base: { status: 'Active' } });
    const lines = undoLines([created, pending]);
    const now = new Map([['user:900', user({ username: 'n', status: 'Offline' })]]);
    const plain = judgeUndo(lines, now);
    expect(undoCounts(plain)).toMatchObject({ irreversible: 1, notApplied: 1, revert: 0 });
    expect(undoDrafts(plain)).toEqual([]);
    const offered = judgeUndo(lines, now, { force: new Set(), offers: new Set([created.id]) });
    expect(undoDrafts(offered).map((d) => d.op)).toEqual([
      { kind: 'user.update', userid: 900, changes: { status: 'Inactive' } },
    ]);
  });

  it('leaves a record it could not read out of the undo, counted as unknown', () => {
    const judged = judgeUndo(undoLines([doneStatus(1, 'Active', 'Inactive')]), new Map());
    expect(undoCounts(judged).unknown).toBe(1);
    expect(undoDrafts(judged)).toEqual([]);
  });
});
