/**
 * A list of people marks everyone with a change waiting in the Outbox, whatever the change is
 * about: their record, an e-mail, access, a credential, training.
 */
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { OP_KINDS } from '../../shared/ipc.ts';
import { enqueueOps } from '../../shared/replay-queue/queue.ts';
import type { FieldbookDb } from '../db/index.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';
import { SAMPLE_OPS } from '../testing/op-samples.ts';
import { registerOutboxOverlays } from '../outbox/overlays.ts';
import { pendingByPerson, personMark } from './overlays.ts';

beforeAll(() => registerOutboxOverlays());

/**
 * User 1 with what the sample ops are aimed at: e-mail 5, group access 7-1, feature access 101-3-1, credential 9,
 * training 900.
 */
async function cachedPerson(): Promise<FieldbookDb> {
  const db = freshDb();
  await db.users.bulkPut([user(1, { siteid: 101 }), user(2, { siteid: 101 })]);
  await db.emails.put({
    emailid: 5,
    userid: 1,
    email: 'ann@example.test',
    status: 'Active',
    isprimary: true,
  });
  await db.groupAccess.put({ id: '7-1', groupid: 7, userid: 1, siteid: 101 });
  await db.moduleAccess.put({ id: '101-3-1', accessID: 3, siteid: 101, userid: 1 });
  await db.credentialAssignments.put(credentialAssignment(9, 1, '12/31/2026'));
  await db.courses.bulkPut(
    [30, 31].map((courseid) => ({
      courseid,
      siteid: 101,
      coursename: `Course ${courseid}`,
      coursetype: 1,
      status: 'active',
    })),
  );
  await db.trainingAssignments.put(trainingAssignment(900, 1, 30, '2026-12-31'));
  return db;
}

describe('the people a pending change is about', () => {
  it.each(OP_KINDS.filter((kind) => kind !== 'user.create'))(
    'a person whose only pending change is %s is marked on their row',
    async (kind) => {
      const db = await cachedPerson();
      const [op] = await enqueueOps(db, [{ op: SAMPLE_OPS[kind], summary: kind }]);
      const byPerson = await pendingByPerson(db);
      expect(personMark(user(1), byPerson)).toEqual({ pendingOps: [op!.id], pendingChange: 'update' });
      expect(personMark(user(2), byPerson)).toEqual({});
    },
  );

  it('marks a person created offline as an addition, with their own changes', async () => {
    const db = await cachedPerson();
    const [op] = await enqueueOps(db, [{ op: SAMPLE_OPS['user.create'], summary: 'create' }]);
    const byPerson = await pendingByPerson(db);
    const [created] = [...byPerson.keys()];
    expect(personMark({ userid: created!, pendingOps: [op!.id], pendingChange: 'create' }, byPerson)).toEqual(
      { pendingOps: [op!.id], pendingChange: 'create' },
    );
  });

  it('gathers every pending change about one person once', async () => {
    const db = await cachedPerson();
    const ops = await enqueueOps(db, [
      { op: SAMPLE_OPS['user.update'], summary: 'status' },
      { op: SAMPLE_OPS['email.add'], summary: 'e-mail' },
      { op: SAMPLE_OPS['trainingAssignment.update'], summary: 'due date' },
    ]);
    const byPerson = await pendingByPerson(db);
    expect(new Set(byPerson.get(1))).toEqual(new Set(ops.map((op) => op.id)));
  });
});
