/** The Outbox and the undo name records the cache no longer holds from what the outbox itself recorded. */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { freshDb, user } from '../../testing/fixtures.ts';
import { loadOpNames } from './names.ts';
import { describeOp } from './describe.ts';

describe('names of records the cache does not hold', () => {
  async function setup() {
    const db = freshDb();
    await db.users.put(user(1, { firstname: 'Ann', lastname: 'Lee' }));
    await db.courses.put({
      courseid: 50,
      siteid: 101,
      coursename: 'Fall protection',
      coursetype: 1,
      status: 'active',
    });
    // a batch that created a person, and assigned a course to them and to Ann: all sent
    const create = outboxOp(
      { kind: 'user.create', siteid: 101, fields: { username: 'cy', firstname: 'Cy', lastname: 'Ode' } },
      { status: 'done', createdId: 10179 },
    );
    const toCy = outboxOp(
      { kind: 'trainingAssignment.create', userid: 0, courseid: 50, fields: {} },
      { status: 'done', createdId: 1003011, bindings: [{ fromOp: create.id, field: 'userid' }] },
    );
    const toAnn = outboxOp(
      { kind: 'trainingAssignment.create', userid: 1, courseid: 50, fields: {} },
      { status: 'done', createdId: 1003010 },
    );
    // its undo, queued: the created assignments removed (the cache no longer holds them once sent), the person set
    // Inactive
    const undo = [
      outboxOp({ kind: 'trainingAssignment.delete', transcriptid: 1003010 }, { undoes: 'b1' }),
      outboxOp({ kind: 'trainingAssignment.delete', transcriptid: 1003011 }, { undoes: 'b1' }),
      outboxOp({ kind: 'user.update', userid: 10179, changes: { status: 'Inactive' } }, { undoes: 'b1' }),
    ];
    return { db, ops: [create, toCy, toAnn, ...undo], undo };
  }

  it('names a person and training assignments the batch created from its own creates', async () => {
    const { db, ops, undo } = await setup();
    const names = await loadOpNames(db, ops);
    expect(undo.map((op) => describeOp(op, names))).toEqual([
      "Undo: Remove Ann Lee's Fall protection",
      "Undo: Remove Cy Ode's Fall protection",
      'Undo: Change status "Inactive" of Cy Ode',
    ]);
  });

  it('names a removed training assignment from what its removal recorded', async () => {
    const { db } = await setup();
    const removal = outboxOp(
      { kind: 'trainingAssignment.delete', transcriptid: 1002000 },
      { status: 'done', base: { userid: 1, courseid: 50, duedate: '', startdate: '' } },
    );
    expect(describeOp(removal, await loadOpNames(db, [removal]))).toBe("Remove Ann Lee's Fall protection");
  });

  it('prefers what the cache holds now', async () => {
    const { db, ops, undo } = await setup();
    await db.users.put(user(10179, { firstname: 'Cyril', lastname: 'Ode' }));
    expect(describeOp(undo[2]!, await loadOpNames(db, ops))).toBe(
      'Undo: Change status "Inactive" of Cyril Ode',
    );
  });
});
