import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { describe, expect, it, vi } from 'vitest';
import { SCHEMA_V1, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_VERSION } from './schema.ts';
import { snapshotHistory } from '../history/snapshot.ts';
import { EMPTY_CATALOG } from '../history/facts.ts';
import type { FieldbookDb } from './rows.ts';
import type { WholeFactRow } from '../history/change.ts';
import type { PersonFact } from '../history/rows.ts';
import { loadDay } from '../history/rebuild.ts';
import { packRows, readPeopleRows } from '../history/packs.ts';
import { openFieldbookDb } from './index.ts';
import { NewerDatabaseError, UPGRADE_BLOCKED, CLOSED_FOR_UPGRADE, onDatabaseNotice } from './lifecycle.ts';
import { credentialAssignment, SCHEMA_OF_VERSION_8, trainingAssignment } from '../testing/fixtures.ts';
import type { UserRecord } from '../../shared/records.ts';
import { requirementRow } from '../features/requirements/model.ts';

/** A user as version 1 stored it: lower-cased phrases, accents kept. */
function v1User(
  userid: number,
  firstname: string,
  lastname: string,
  username: string,
  employeeid: string,
): UserRecord {
  const [f, l] = [firstname.toLowerCase(), lastname.toLowerCase()];
  return {
    userid,
    siteid: 1,
    username,
    firstname,
    lastname,
    employeeid,
    status: 'Active',
    usertype: 'User',
    searchKeys: [`${f} ${l}`, `${l} ${f}`, `${l}, ${f}`, username.toLowerCase(), employeeid.toLowerCase()],
    sortName: `${l}, ${f}`,
  };
}

const V1_ROWS: Record<keyof typeof SCHEMA_V1, unknown[]> = {
  sites: [{ siteid: 1, sitename: 'North', loginpage: 'north' }],
  users: [
    v1User(1, 'María', 'Núñez', 'maria.nunez', 'EMP-001'),
    v1User(2, 'Lucía', 'Fernández', 'lucia.fernandez', 'EMP-002'),
  ],
  emails: [{ emailid: 5, userid: 1, email: 'm@example.test', status: 'active', isprimary: true }],
  profileCategories: [{ categoryid: 3, siteid: 1, categoryname: 'Crews', groupcount: 1 }],
  groups: [
    { groupid: 10, siteid: 1, categoryid: 3, groupname: 'Operations', usercount: 1, accessusercount: 1 },
  ],
  groupMembers: [{ id: '10-1', groupid: 10, userid: 1 }],
  groupAccess: [{ id: '10-2', groupid: 10, userid: 2, siteid: 1 }],
  modules: [{ id: '1-7', accessID: 7, siteid: 1, moduleName: 'Reports', functionName: 'View' }],
  moduleAccess: [{ id: '1-7-2', accessID: 7, siteid: 1, userid: 2 }],
  credentialCategories: [{ categoryid: 4, siteid: 1, categoryname: 'Safety', credentialcount: 1 }],
  credentials: [
    {
      credentialid: 20,
      credentialname: 'Rigging',
      description: '',
      categoryid: 4,
      categoryname: 'Safety',
      requiredstartdate: false,
      requiredexpirationdate: true,
      requiredcredentialnum: false,
      requirements: '',
      activeusercount: 1,
      inactiveusercount: 0,
    },
  ],
  credentialAssignments: [credentialAssignment(20, 1, '12/31/2026')],
  courses: [{ courseid: 30, siteid: 1, coursename: 'Fall arrest', coursetype: 1, status: 'active' }],
  // one written before openDueIso existed, one with a stale value for completed training
  trainingAssignments: [
    trainingAssignment(40, 1, 30, '2026-03-01'),
    {
      ...trainingAssignment(41, 2, 30, '2026-04-01', { course_status: 'completed' }),
      openDueIso: '2026-04-01',
    },
  ],
  syncCheckpoints: [{ taskId: 'users@1', collection: 'users', nextStartrow: 51, pagesDone: 1, total: 2 }],
  syncCollections: [
    { collection: 'users', lastSyncedAt: '2026-11-01T10:00:00.000Z', lastError: null, total: 2 },
  ],
  outbox: [
    {
      id: 'op-1',
      batchId: 'b-1',
      seq: 1,
      targetKey: 'user:1',
      dependsOn: [],
      op: { kind: 'user.update', userid: 1, fields: { status: 'Inactive' } },
      base: {},
      createdAt: '2026-11-01T10:00:00.000Z',
      status: 'queued',
      attempts: 0,
      maybeSent: false,
      nextAttemptAt: null,
      lastError: null,
      response: null,
      theirs: null,
      summary: 'Set status',
    },
  ],
  audit: [
    {
      seq: 1,
      opId: 'op-0',
      batchId: 'b-0',
      at: '2026-11-01T09:00:00.000Z',
      actor: 'me',
      kind: 'user.update',
      targetKey: 'user:2',
      outcome: 'done',
      before: null,
      after: null,
      response: null,
      message: 'ok',
    },
  ],
};

async function writeVersion1(name: string): Promise<void> {
  const v1 = new Dexie(name);
  v1.version(1).stores(SCHEMA_V1);
  await v1.open();
  await v1.transaction('rw', v1.tables, async () => {
    for (const [table, rows] of Object.entries(V1_ROWS)) await v1.table(table).bulkPut(rows);
  });
  v1.close();
}

const uniqueName = (what: string) => `${what}-${Math.random().toString(36).slice(2)}`;

describe('upgrading a version 1 database to the newest version', () => {
  it('keeps every row of every table, with the derived fields recomputed', async () => {
    const name = uniqueName('v1');
    await writeVersion1(name);
    const db = openFieldbookDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    // version 3's table is there, empty: the change log starts with the next sync
    expect(await db.syncChanges.count()).toBe(0);
    for (const [table, rows] of Object.entries(V1_ROWS)) {
      const stored = await db.table(table).toArray();
      expect(stored, table).toHaveLength(rows.length);
      if (table === 'users' || table === 'trainingAssignments') continue;
      expect(stored, table).toEqual(rows);
    }
    const users = await db.users.orderBy('userid').toArray();
    expect(users[0]).toEqual({
      ...(V1_ROWS.users[0] as UserRecord),
      searchKeys: ['maria', 'nunez', 'emp', '001'],
      sortName: 'nunez, maria',
    });
    expect(users[1]!.searchKeys).toEqual(['lucia', 'fernandez', 'emp', '002']);
    const training = await db.trainingAssignments.orderBy('transcriptid').toArray();
    expect(training.map((t) => t.openDueIso)).toEqual(['2026-03-01', '']);
    db.close();
  });

  it('answers every index of every table from the upgraded rows', async () => {
    const name = uniqueName('v1-index');
    await writeVersion1(name);
    const db = openFieldbookDb(name);
    await db.open();
    for (const table of db.tables) {
      const rows = (await table.toArray()) as Record<string, unknown>[];
      for (const index of table.schema.indexes) {
        for (const row of rows) {
          const value = Array.isArray(index.keyPath) ? index.keyPath.map((k) => row[k]) : row[index.keyPath!];
          const keys = index.multi ? (value as unknown[]) : [value];
          for (const key of keys) {
            const found = await table
              .where(index.name)
              .equals(key as never)
              .primaryKeys();
            expect(found, `${table.name}.${index.name} = ${JSON.stringify(key)}`).toContain(
              row[table.schema.primKey.keyPath as string],
            );
          }
        }
      }
    }
    // the old, accented phrases are gone from the search index; the folded words are there
    expect(await db.users.where('searchKeys').equals('maría núñez').count()).toBe(0);
    expect(await db.users.where('searchKeys').startsWith('fern').primaryKeys()).toEqual([2]);
    expect(await db.trainingAssignments.where('openDueIso').equals('2026-04-01').count()).toBe(0);
    db.close();
  });
});

describe("upgrading a version 3 database (page hashes in the collections' rows)", () => {
  it('drops the old page hashes and starts the fingerprint table empty, keeping the rest of the row', async () => {
    const name = uniqueName('v3');
    const v3 = new Dexie(name);
    v3.version(3).stores({ ...SCHEMA_V1, ...SCHEMA_V3 });
    await v3.open();
    await v3.table('syncCollections').put({
      collection: 'users',
      lastSyncedAt: '2026-11-01T10:00:00.000Z',
      lastError: null,
      total: 2,
      pageFingerprints: { 'users:/users@1': 'abc' },
    });
    v3.close();
    const db = openFieldbookDb(name);
    await db.open();
    expect(await db.syncCollections.get('users')).toEqual({
      collection: 'users',
      lastSyncedAt: '2026-11-01T10:00:00.000Z',
      lastError: null,
      total: 2,
    });
    expect(await db.pageFingerprints.count()).toBe(0);
    db.close();
  });
});

describe('upgrading a version 4 database (before requirements)', () => {
  it('starts the requirements empty, keeps every cached and queued row, and stores requirements by scope', async () => {
    const name = uniqueName('v4');
    const v4 = new Dexie(name);
    v4.version(4).stores({ ...SCHEMA_V1, ...SCHEMA_V3, ...SCHEMA_V4 });
    await v4.open();
    await v4.transaction('rw', v4.tables, async () => {
      for (const [table, rows] of Object.entries(V1_ROWS)) await v4.table(table).bulkPut(rows);
    });
    v4.close();
    const db = openFieldbookDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.requirements.count()).toBe(0);
    expect(await db.outbox.toArray()).toEqual(V1_ROWS.outbox);
    expect(await db.credentials.toArray()).toEqual(V1_ROWS.credentials);
    await db.requirements.bulkPut([
      requirementRow('group:10', 'credential:20'),
      requirementRow('group:10', 'course:30'),
      requirementRow('site:1', 'credential:20'),
    ]);
    expect(await db.requirements.where('scope').equals('group:10').primaryKeys()).toEqual([
      'group:10|course:30',
      'group:10|credential:20',
    ]);
    db.close();
  });
});

describe('upgrading a version 5 database (before the compliance history)', () => {
  it('starts the history empty, keeps every cached, queued and required row, and finds history rows by sync and person', async () => {
    const name = uniqueName('v5');
    const v5 = new Dexie(name);
    v5.version(5).stores({ ...SCHEMA_V1, ...SCHEMA_V3, ...SCHEMA_V4, ...SCHEMA_V5 });
    await v5.open();
    await v5.transaction('rw', v5.tables, async () => {
      for (const [table, rows] of Object.entries(V1_ROWS)) await v5.table(table).bulkPut(rows);
      await v5.table('requirements').put(requirementRow('site:1', 'credential:20'));
    });
    v5.close();
    const db = openFieldbookDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    for (const table of [db.historySyncs, db.historyPacks, db.historyHeads, db.historyShared])
      expect(await table.count(), table.name).toBe(0);
    expect(await db.outbox.toArray()).toEqual(V1_ROWS.outbox);
    expect(await db.requirements.count()).toBe(1);
    const seq = (await db.historySyncs.add({
      at: '2026-11-01T10:00:00.000Z',
      day: '2026-11-01',
      figures: [],
    }))!;
    await db.historyPacks.bulkAdd(packRows([{ userid: 1, gone: 'platform' }], seq));
    expect(await db.historySyncs.where('day').belowOrEqual('2026-11-02').count()).toBe(1);
    expect(await readPeopleRows(db, { upTo: seq })).toHaveLength(1);
    expect(await readPeopleRows(db, { userid: 1 })).toHaveLength(1);
    db.close();
  });
});

describe("upgrading a version 6 database (a person's whole record in each history row)", () => {
  const fact = (expiration: string): PersonFact => ({
    u: [1, 'ann', 'Ann', 'Lee', 'E1', 'Active', 'User'],
    g: [8],
    c: [['5-1', 5, '2020-01-01', expiration]],
    t: [[70, 7, 'Course 7', 'Not started', '2027-01-01']],
  });
  const v6Rows: WholeFactRow[] = [
    {
      id: 1,
      seq: 1,
      userid: 1,
      fact: fact('2026-03-02'),
      appeared: ['Expires soon|credential:5'],
      resolved: [],
    },
    {
      id: 2,
      seq: 2,
      userid: 1,
      fact: fact('2028-03-02'),
      appeared: [],
      resolved: ['Expires soon|credential:5'],
    },
    { id: 3, seq: 3, userid: 1, fact: null, appeared: [], resolved: [] },
  ];

  async function upgraded(): Promise<FieldbookDb> {
    const name = uniqueName('v6');
    const v6 = new Dexie(name);
    v6.version(6).stores({ ...SCHEMA_V1, ...SCHEMA_V3, ...SCHEMA_V4, ...SCHEMA_V5, ...SCHEMA_V6 });
    await v6.open();
    await v6.table('historySyncs').bulkAdd(
      ['2026-03-01', '2026-03-05', '2026-03-09'].map((day) => ({
        at: `${day}T12:00:00Z`,
        day,
        figures: [],
      })),
    );
    await v6.table('historyPeople').bulkAdd(v6Rows);
    v6.close();
    const db = openFieldbookDb(name);
    await db.open();
    return db;
  }

  it('keeps in each row only what changed, and rebuilds every day as before', async () => {
    const db = await upgraded();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await readPeopleRows(db)).toEqual([
      { id: 1, seq: 1, userid: 1, ...fact('2026-03-02'), a: ['Sk5'] },
      {
        id: 2,
        seq: 2,
        userid: 1,
        c: [['5-1', 5, '2020-01-01', '2028-03-02']],
        r: ['Sk5'],
      },
      { id: 3, seq: 3, userid: 1, gone: 'platform' },
    ]);
    expect((await loadDay(db, '2026-03-04')).facts.get(1)).toEqual(fact('2026-03-02'));
    expect((await loadDay(db, '2026-03-05')).facts.get(1)).toEqual(fact('2028-03-02'));
    expect((await loadDay(db, '2026-03-09')).facts.has(1)).toBe(false);
    db.close();
  });
});

describe('upgrading to version 10 (the people written since the last snapshot kept on disk)', () => {
  it('makes the first snapshot after the upgrade read everyone: what was written before it is not known', async () => {
    const name = uniqueName('v8');
    const v8 = new Dexie(name);
    v8.version(8).stores(SCHEMA_OF_VERSION_8);
    await v8.open();
    await v8.table('historySyncs').add({ at: '2026-03-01T12:00:00Z', day: '2026-03-01', figures: [] });
    await v8.table('historyShared').bulkAdd([
      { seq: 1, kind: 'catalog', value: JSON.stringify(EMPTY_CATALOG) },
      { seq: 1, kind: 'requirements', value: '[]' },
    ]);
    v8.close();
    const db = openFieldbookDb(name);
    const readEveryone = vi.spyOn(db.users, 'toArray');
    await snapshotHistory(db, '2026-03-02T12:00:00Z', '2026-03-02');
    expect(readEveryone).toHaveBeenCalled();
    db.close();
  });
});

describe('the database meeting another window or another build', () => {
  it('refuses, with a sentence, a database written by a newer build', async () => {
    const name = uniqueName('newer');
    const newer = new Dexie(name);
    newer.version(SCHEMA_VERSION + 1).stores({ ...SCHEMA_V1, laterTable: 'id' });
    await newer.open();
    newer.close();
    const db = openFieldbookDb(name);
    const error = await db.open().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NewerDatabaseError);
    expect((error as Error).message).toContain(
      `newer version of Fieldbook (database version ${SCHEMA_VERSION + 1}; this build knows up to ${SCHEMA_VERSION})`,
    );
  });

  it('closes its copy and says so when a newer build upgrades the database in another window', async () => {
    const name = uniqueName('vc');
    const notices: string[] = [];
    const off = onDatabaseNotice((m) => notices.push(m));
    const db = openFieldbookDb(name);
    await db.open();
    const newer = new Dexie(name);
    newer.version(SCHEMA_VERSION + 1).stores(SCHEMA_V1);
    await newer.open();
    expect(db.isOpen()).toBe(false);
    expect(notices).toContain(CLOSED_FOR_UPGRADE);
    newer.close();
    off();
  });

  it('says which window to close while its own upgrade waits for an older connection', async () => {
    const name = uniqueName('blocked');
    const notices: string[] = [];
    const off = onDatabaseNotice((m) => notices.push(m));
    // an older window that does not let go of version 1
    const raw = await new Promise<IDBDatabase>((resolve) => {
      const req = indexedDB.open(name, 10);
      req.onupgradeneeded = () => req.result.createObjectStore('users', { keyPath: 'userid' });
      req.onsuccess = () => resolve(req.result);
    });
    raw.onversionchange = () => undefined;
    const db = openFieldbookDb(name);
    const opened = db.open();
    await expect.poll(() => notices).toContain(UPGRADE_BLOCKED);
    raw.close();
    await opened;
    expect(db.verno).toBe(SCHEMA_VERSION);
    db.close();
    off();
  });
});

describe('upgrading to version 14 (the outbox without its targetKey index)', () => {
  it('keeps every queued change, found by status and in queue order, and no longer indexes them by record', async () => {
    const name = uniqueName('v8-outbox');
    const v8 = new Dexie(name);
    v8.version(8).stores(SCHEMA_OF_VERSION_8);
    await v8.open();
    const op = V1_ROWS.outbox[0] as Record<string, unknown>;
    await v8.table('outbox').bulkAdd([
      { ...op, id: 'op-1', seq: 1, status: 'pending' },
      { ...op, id: 'op-2', seq: 2, status: 'needs-review', targetKey: 'user:2' },
    ]);
    v8.close();
    const db = openFieldbookDb(name);
    await db.open();
    expect(db.verno).toBe(SCHEMA_VERSION);
    expect(await db.outbox.where('status').equals('needs-review').primaryKeys()).toEqual(['op-2']);
    expect((await db.outbox.orderBy('seq').toArray()).map((o) => [o.id, o.targetKey])).toEqual([
      ['op-1', 'user:1'],
      ['op-2', 'user:2'],
    ]);
    const stored = db.backendDB().transaction('outbox').objectStore('outbox').indexNames;
    expect([...stored].sort()).toEqual(['seq', 'status']);
    db.close();
  });
});
