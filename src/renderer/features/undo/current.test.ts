import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FieldbookApi, OpSpec, RecordState } from '../../../shared/ipc.ts';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { judgeUndo, readsOf, undoLines } from '../../../shared/undo/plan.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../../testing/fixtures.ts';
import { cachedState, readRecords } from './current.ts';

describe('the undo preview offline: records as the cache holds them', () => {
  it('reads a person, an assignment and a training in the field names the undo compares', async () => {
    const db = freshDb();
    await db.users.put(user(7, { status: 'Inactive' }));
    await db.credentialAssignments.put(credentialAssignment(3, 7, '06/30/2028'));
    await db.trainingAssignments.put(trainingAssignment(31, 7, 2, '2030-03-01'));
    expect(
      await cachedState(db, { kind: 'user.update', userid: 7, changes: { status: 'Active' } }),
    ).toMatchObject({ present: true, record: { status: 'Inactive' } });
    expect(
      await cachedState(db, { kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 }),
    ).toMatchObject({ present: true, record: { expirationdate: '06/30/2028' } });
    expect(await cachedState(db, { kind: 'trainingAssignment.delete', transcriptid: 31 })).toMatchObject({
      present: true,
      record: { duedate: expect.any(String) },
    });
    expect(await cachedState(db, { kind: 'groupAccess.revoke', siteid: 101, groupid: 5, userid: 7 })).toEqual(
      { present: false },
    );
  });

  it('finds a bulk status change changed behind the batch as a conflict from the cache alone', async () => {
    const db = freshDb();
    await db.users.put(user(7, { status: 'Offline' }));
    const lines = undoLines([
      outboxOp(
        { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } },
        { status: 'done', base: { status: 'Active' } },
      ),
    ]);
    const { now } = await readRecords(readsOf(lines), { online: false, db });
    expect(judgeUndo(lines, now)[0]!.verdict).toBe('conflict');
  });
});

describe('the undo preview online', () => {
  it('asks the server for each record once, and keeps a record it could not read out, with its error', async () => {
    const asked: OpSpec[] = [];
    const api: Pick<FieldbookApi, 'replay:read'> = {
      'replay:read': async ({ op }) => {
        asked.push(op as OpSpec);
        if (op.kind === 'groupAccess.revoke')
          return { ok: false, error: { code: 'network', message: 'The server could not be reached.' } };
        return { ok: true, value: { present: true, record: { status: 'Inactive' } } satisfies RecordState };
      },
    };
    const lines = undoLines([
      outboxOp(
        { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } },
        { status: 'done', base: { status: 'Active' } },
      ),
      outboxOp(
        { kind: 'user.update', userid: 7, changes: { firstname: 'Al' } },
        { status: 'done', base: { firstname: 'Alan' } },
      ),
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 7 }, { status: 'done' }),
    ]);
    const result = await readRecords(readsOf(lines), { online: true, api });
    expect(asked).toHaveLength(2);
    expect(result.errors.get('groupAccess:5-7')?.message).toBe('The server could not be reached.');
    expect(judgeUndo(lines, result.now).map((j) => j.verdict)).toEqual([null, 'conflict', 'revert']);
  });
});
