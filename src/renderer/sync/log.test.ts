import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CollectionProgress, SyncFinishedEvent, SyncPageEvent } from '../../shared/ipc.ts';
import type { UserRecord } from '../../shared/records.ts';
import { createSyncController } from './controller.ts';
import { createSyncStore } from './store.ts';
import { ChangeCollector, KEEP_SYNCS, logEntry, MAX_LISTED, recordSyncChanges } from './log.ts';
import { pageChanges } from './changes.ts';
import { fakeApi } from '../testing/fake-api.ts';
import { credentialAssignment, freshDb, trainingAssignment, user } from '../testing/fixtures.ts';

const complete: CollectionProgress = { state: 'complete', records: 0, pages: 1, total: null };

function setup() {
  const fake = fakeApi();
  let n = 0;
  fake.respond('sync:start', () => ({ ok: true, value: { syncId: `sync-${++n}`, tasks: [] } }));
  fake.respond('sync:ack', () => ({ ok: true, value: null }));
  const db = freshDb();
  let clock = new Date('2026-03-01T10:00:00Z');
  const controller = createSyncController(fake.api, db, createSyncStore(), () => clock);
  /** one pass delivering these users (none: it failed before its first page) */
  const sync = async (
    users: UserRecord[],
    at: string,
    outcome: SyncFinishedEvent['outcome'] = 'completed',
  ) => {
    clock = new Date(at);
    await controller.start();
    const syncId = `sync-${n}`;
    const page: SyncPageEvent = {
      kind: 'records',
      syncId,
      pageId: 1,
      taskId: 'users',
      collection: 'users',
      records: users,
      checkpoint: { taskId: 'users', collection: 'users', nextStartrow: 1001, done: outcome === 'completed' },
    };
    const done: SyncFinishedEvent = {
      syncId,
      outcome,
      requests: 1,
      plannedRequests: 1,
      collections: { users: outcome === 'completed' ? complete : { ...complete, state: 'failed' } },
    };
    if (users.length > 0) fake.emit('sync:page', page);
    fake.emit('sync:finished', done);
    await controller.idle();
  };
  return { db, sync };
}

describe('the change log of the syncs', () => {
  it('records nothing on a profile’s first sync: there was no before', async () => {
    const { db, sync } = setup();
    await sync([user(1), user(2)], '2026-03-01T10:00:00Z');
    expect(await db.syncChanges.count()).toBe(0);
  });

  it('records people added, removed and changed in status, type, site and name', async () => {
    const { db, sync } = setup();
    await sync(
      [user(1, { status: 'Active' }), user(2), user(3, { firstname: 'Ann' })],
      '2026-03-01T10:00:00Z',
    );
    await sync(
      [
        user(1, { status: 'Inactive', usertype: 'Admin', siteid: 202 }),
        user(3, { firstname: 'Anna' }),
        user(4),
      ],
      '2026-03-02T10:00:00Z',
    );
    const [log] = await db.syncChanges.toArray();
    expect(log!.since).toBe('2026-03-01T10:00:00.000Z');
    expect(log!.counts).toEqual({
      'person.status': 1,
      'person.usertype': 1,
      'person.site': 1,
      'person.name': 1,
      'person.added': 1,
      'person.removed': 1,
    });
    expect(log!.changes).toContainEqual({ k: 'person.status', u: 1, d: 'Active → Inactive' });
    expect(log!.changes).toContainEqual(expect.objectContaining({ k: 'person.removed', u: 2, s: 1 }));
  });

  it('records a resync that changed nothing as a sync with no changes', async () => {
    const { db, sync } = setup();
    await sync([user(1)], '2026-03-01T10:00:00Z');
    await sync([user(1)], '2026-03-01T11:00:00Z');
    const logs = await db.syncChanges.toArray();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.changes).toEqual([]);
    expect(logs[0]!.counts).toEqual({});
  });

  it('keeps no entry for a pass that stopped (a sign-in page, a redirect) having changed nothing', async () => {
    const { db, sync } = setup();
    await sync([user(1)], '2026-03-01T10:00:00Z');
    await sync([], '2026-03-01T11:00:00Z', 'failed');
    expect(await db.syncChanges.count()).toBe(0);
  });

  it('keeps what a pass that stopped had already changed', async () => {
    const { db, sync } = setup();
    await sync([user(1, { status: 'Active' })], '2026-03-01T10:00:00Z');
    await sync([user(1, { status: 'Inactive' })], '2026-03-01T11:00:00Z', 'failed');
    const [log] = await db.syncChanges.toArray();
    expect(log).toMatchObject({ outcome: 'failed', counts: { 'person.status': 1 } });
  });

  it('counts credentials that expired and training that fell overdue since the previous sync', async () => {
    const { db, sync } = setup();
    await sync([user(1)], '2026-03-01T10:00:00Z');
    await db.credentialAssignments.bulkPut([
      credentialAssignment(3, 1, '03/02/2026'),
      credentialAssignment(4, 1, '02/01/2026'),
      credentialAssignment(5, 1, '12/31/2030'),
    ]);
    await db.trainingAssignments.put(trainingAssignment(9, 1, 2, '2026-03-03'));
    await sync([user(1)], '2026-03-05T10:00:00Z');
    const [log] = await db.syncChanges.toArray();
    expect(log!.counts).toEqual({ 'credential.expired': 1, 'training.overdue': 1 });
  });

  it('keeps the last 20 syncs only', async () => {
    const db = freshDb();
    for (let i = 0; i < KEEP_SYNCS + 3; i++)
      await recordSyncChanges(
        db,
        logEntry(
          `s${i}`,
          `2026-03-01T10:${String(i).padStart(2, '0')}:00Z`,
          'completed',
          '2026-03-01T09:00:00Z',
          [],
        ),
      );
    const kept = await db.syncChanges.toArray();
    expect(kept).toHaveLength(KEEP_SYNCS);
    expect(kept[0]!.syncId).toBe('s3');
  });
});

describe('a pass that changes a great deal', () => {
  it('counts every change but lists the first 5,000 only', () => {
    const collector = new ChangeCollector();
    collector.add(Array.from({ length: MAX_LISTED + 7 }, (_, i) => ({ k: 'person.added' as const, u: i })));
    const entry = collector.entry('s', '2026-03-01T10:00:00Z', 'completed', '2026-02-28T10:00:00Z');
    expect(entry.counts).toEqual({ 'person.added': MAX_LISTED + 7 });
    expect(entry.changes).toHaveLength(MAX_LISTED);
    expect(entry.omitted).toBe(7);
  });
});

describe('changes of one page', () => {
  it('tells a renewal from an edit, a completion from progress, and a new grant', () => {
    const old = credentialAssignment(3, 1, '03/02/2026');
    expect(pageChanges('credentialAssignments', [credentialAssignment(3, 1, '03/02/2027')], [old])).toEqual([
      { k: 'credential.renewed', u: 1, d: 'credential 3: 2026-03-02 → 2027-03-02' },
    ]);
    expect(pageChanges('credentialAssignments', [{ ...old, notes: 'x' }], [old])).toEqual([]);
    const t = trainingAssignment(9, 1, 2, '2026-03-03');
    expect(
      pageChanges('trainingAssignments', [{ ...t, course_status: 'Completed' }], [t]).map((c) => c.k),
    ).toEqual(['training.completed']);
    expect(pageChanges('trainingAssignments', [{ ...t, course_status: 'In progress' }], [t])).toEqual([]);
    expect(
      pageChanges('groupAccess', [{ id: '5-1', groupid: 5, userid: 1, siteid: 101 }], [undefined]),
    ).toEqual([{ k: 'access.granted', u: 1, d: 'group 5' }]);
  });
});
