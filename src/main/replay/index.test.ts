import { describe, expect, it } from 'vitest';
import type { AppError, ReplayRequest } from '../../shared/ipc.ts';
import { executeReplay, type ReplayClient } from './index.ts';
import type { RecordSource } from './list-reads.ts';

type Answer = { httpcode: number; body: unknown } | { error: AppError; maybeSent?: boolean };
type Call = { method: string; path: string; body?: unknown; retry?: 'auto' | 'none' };

/**
 * A scripted API: answers by "METHOD path" in order, and records the calls made.
 * A write sent with the client's automatic retry would be resent blind on a lost
 * answer: the script refuses it, so every write test fails if that ever happens.
 */
function scriptedClient(script: Record<string, Answer[]>) {
  const calls: Call[] = [];
  const client: ReplayClient = {
    async request(method, path, opts) {
      calls.push({ method, path, body: opts?.body, ...(opts?.retry ? { retry: opts.retry } : {}) });
      if (method !== 'GET' && opts?.retry !== 'none')
        throw new Error(
          `${method} ${path} was sent with retry ${String(opts?.retry)}: writes must be sent once ('none')`,
        );
      const answer = script[`${method} ${path}`]?.shift();
      if (!answer) throw new Error(`unexpected ${method} ${path}`);
      if ('error' in answer)
        throw Object.assign(new Error(answer.error.message), {
          appError: answer.error,
          maybeSent: answer.maybeSent ?? false,
        });
      return { httpcode: answer.httpcode, body: answer.body, statusBody: null };
    },
  };
  const writeCalls = () => calls.filter((c) => c.method !== 'GET');
  return {
    client,
    calls,
    writes: () => writeCalls().map(({ method, path, body }) => ({ method, path, body })),
    retries: () => writeCalls().map((c) => c.retry),
  };
}

const status = (httpcode: number, statuscode: number, extra: Record<string, unknown> = {}) => ({
  httpcode,
  statuscode,
  status: 's',
  developermessage: 'd',
  moreinfo: 'm',
  ...extra,
});
const user = (fields: Record<string, unknown> = {}) => ({
  userid: 42,
  siteid: 101,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E1',
  status: 'Active',
  usertype: 'User',
  ...fields,
});
const statusChange = (extra: Partial<ReplayRequest> = {}): ReplayRequest => ({
  opId: 'op1',
  op: { kind: 'user.update', userid: 42, changes: { status: 'Inactive' } },
  base: { status: 'Active' },
  verifyFirst: false,
  ...extra,
});
const userCreate = (verifyFirst: boolean): ReplayRequest => ({
  opId: 'op2',
  op: {
    kind: 'user.create',
    siteid: 101,
    fields: { username: 'ann', firstname: 'Ann', lastname: 'Lee', employeeid: 'E1' },
  },
  verifyFirst,
});

describe('every write', () => {
  it("is sent with retry 'none' (never the client's blind automatic retry)", async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [{ httpcode: 202, body: status(202, 702) }],
    });
    await executeReplay(api.client, statusChange());
    expect(api.retries()).toEqual(['none']);
  });
});

describe('replaying an update', () => {
  it('reads the record, then sends the change when nobody else changed it', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [{ httpcode: 202, body: status(202, 702) }],
    });
    const outcome = await executeReplay(api.client, statusChange());
    expect(outcome.status).toBe('done');
    expect(api.writes()).toEqual([{ method: 'PUT', path: '/users/42', body: { status: 'Inactive' } }]);
  });

  it('becomes a conflict, sending nothing, when the server changed that field meanwhile', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user({ status: 'Offline' })] } }],
    });
    const outcome = await executeReplay(api.client, statusChange());
    expect(outcome).toMatchObject({ status: 'conflict', fields: ['status'], theirs: { status: 'Offline' } });
    expect(api.writes()).toEqual([]);
  });

  it('sends anyway after the user chose to keep their change', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user({ status: 'Offline' })] } }],
      'PUT /users/42': [{ httpcode: 202, body: status(202, 702) }],
    });
    expect((await executeReplay(api.client, statusChange({ resolution: 'mine' }))).status).toBe('done');
    expect(api.writes()).toHaveLength(1);
  });

  it('reads the record itself when it may have been sent, never a copy read through a list for the batch', async () => {
    // the list's copy predates the earlier attempt; the server now holds the change
    const copy: RecordSource = {
      take: () => ({ present: true, record: user() }),
      writing: () => () => undefined,
    };
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user({ status: 'Inactive' })] } }],
    });
    expect(
      await executeReplay(api.client, statusChange({ verifyFirst: true }), undefined, copy),
    ).toMatchObject({ status: 'done', alreadyApplied: true });
    expect(api.writes()).toEqual([]);
  });

  it('is done without sending when the server already holds the change (an earlier answer was lost)', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user({ status: 'Inactive' })] } }],
    });
    expect(await executeReplay(api.client, statusChange({ verifyFirst: true }))).toMatchObject({
      status: 'done',
      alreadyApplied: true,
    });
    expect(api.writes()).toEqual([]);
  });

  it('needs review when the record is gone from the server', async () => {
    const api = scriptedClient({ 'GET /users/42': [{ httpcode: 200, body: status(200, 901) }] });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'needs-review',
      error: { code: 'not-found' },
    });
  });

  it('needs review on a validation failure', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [
        { error: { code: 'rejected', message: 'bad status', httpcode: 400, statuscode: 1001 } },
      ],
    });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'needs-review',
      error: { statuscode: 1001 },
    });
  });

  it('pauses on a rejected token', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ error: { code: 'token-rejected', message: 'no', httpcode: 401, statuscode: 802 } }],
    });
    expect((await executeReplay(api.client, statusChange())).status).toBe('paused');
  });

  it('asks for a retry, marked as maybe sent, when the connection drops after the change was sent', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [{ error: { code: 'network', message: 'dropped' }, maybeSent: true }],
    });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'retry',
      maybeSent: true,
    });
  });

  it('asks for a retry, marked as maybe sent, when the write fails with an error that says nothing (it may have left)', async () => {
    const calls: string[] = [];
    const client: ReplayClient = {
      async request(method, path) {
        calls.push(`${method} ${path}`);
        if (method === 'GET') return { httpcode: 200, body: { users: [user()] }, statusBody: null };
        throw new TypeError('socket hang up');
      },
    };
    expect(await executeReplay(client, statusChange())).toMatchObject({
      status: 'retry',
      maybeSent: true,
      error: { code: 'network' },
    });
    expect(calls).toEqual(['GET /users/42', 'PUT /users/42']);
  });

  it('asks for a retry, marked as maybe sent, when the write was cancelled, even if the client thought it had not left', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [{ error: { code: 'cancelled', message: 'stopped' }, maybeSent: false }],
    });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'retry',
      maybeSent: true,
    });
  });

  it('asks for a retry, not maybe sent, when the server refused with 429 before applying anything', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [user()] } }],
      'PUT /users/42': [
        {
          error: { code: 'rate-limited', message: 'busy', httpcode: 429, retryAfterMs: 1000 },
          maybeSent: false,
        },
      ],
    });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'retry',
      maybeSent: false,
      error: { retryAfterMs: 1000 },
    });
  });
});

describe('replaying a create', () => {
  it('returns the new id the server gives', async () => {
    const api = scriptedClient({
      'POST /sites/101/users': [{ httpcode: 201, body: status(201, 701, { userid: 77 }) }],
    });
    expect(await executeReplay(api.client, userCreate(false))).toMatchObject({
      status: 'done',
      createdId: 77,
    });
  });

  it('reads the new id back when the answer does not carry it', async () => {
    const api = scriptedClient({
      'POST /sites/101/users': [{ httpcode: 201, body: status(201, 701) }],
      'GET /users': [{ httpcode: 200, body: { users: [user({ userid: 78 })] } }],
    });
    expect(await executeReplay(api.client, userCreate(false))).toMatchObject({
      status: 'done',
      createdId: 78,
    });
  });

  it('is not sent again when it may have been sent and the user exists', async () => {
    const api = scriptedClient({
      'GET /users': [{ httpcode: 200, body: { users: [user({ userid: 79 })] } }],
    });
    expect(await executeReplay(api.client, userCreate(true))).toMatchObject({
      status: 'done',
      alreadyApplied: true,
      createdId: 79,
    });
    expect(api.writes()).toEqual([]);
  });

  it('stays marked as maybe sent when the check before resending it fails: it is checked again, never sent blind', async () => {
    const api = scriptedClient({
      'GET /users': [
        { error: { code: 'network', message: 'The server could not be reached.' }, maybeSent: false },
      ],
    });
    expect(await executeReplay(api.client, userCreate(true))).toMatchObject({
      status: 'retry',
      maybeSent: true,
    });
    expect(api.writes()).toEqual([]);
  });

  it('is sent when verification finds nothing', async () => {
    const api = scriptedClient({
      'GET /users': [{ httpcode: 200, body: status(200, 901) }],
      'POST /sites/101/users': [{ httpcode: 201, body: status(201, 701, { userid: 80 }) }],
    });
    expect(await executeReplay(api.client, userCreate(true))).toMatchObject({
      status: 'done',
      createdId: 80,
    });
  });

  it('counts 1002 as done when the existing user is the one we sent', async () => {
    const api = scriptedClient({
      'POST /sites/101/users': [
        { error: { code: 'duplicate', message: 'taken', httpcode: 409, statuscode: 1002 } },
      ],
      'GET /users': [{ httpcode: 200, body: { users: [user({ userid: 81 })] } }],
    });
    expect(await executeReplay(api.client, userCreate(false))).toMatchObject({
      status: 'done',
      alreadyApplied: true,
      createdId: 81,
    });
  });

  it('needs review when the username is taken by someone else', async () => {
    const api = scriptedClient({
      'POST /sites/101/users': [
        { error: { code: 'duplicate', message: 'taken', httpcode: 409, statuscode: 1002 } },
      ],
      'GET /users': [{ httpcode: 200, body: { users: [user({ userid: 82, firstname: 'Bob' })] } }],
    });
    expect(await executeReplay(api.client, userCreate(false))).toMatchObject({
      status: 'needs-review',
      error: { code: 'duplicate' },
    });
  });

  it('counts a grant answered 1002 as done', async () => {
    const api = scriptedClient({
      'POST /sites/101/access/groups/5/users': [
        { error: { code: 'duplicate', message: 'there', httpcode: 409, statuscode: 1002 } },
      ],
      'GET /users/42/access/groups': [
        { httpcode: 200, body: { groups: [{ groupid: 5, groupname: 'Crew A' }] } },
      ],
    });
    const outcome = await executeReplay(api.client, {
      opId: 'g',
      op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 42 },
      verifyFirst: false,
    });
    expect(outcome).toMatchObject({ status: 'done', alreadyApplied: true });
  });
});

describe('replaying a delete', () => {
  const revoke: ReplayRequest = {
    opId: 'r',
    op: { kind: 'moduleAccess.revoke', siteid: 101, accessID: 3, userid: 42 },
    verifyFirst: true,
  };

  it('is not sent again when verification shows it already gone', async () => {
    const api = scriptedClient({
      'GET /users/42/access/modules': [{ httpcode: 200, body: status(200, 901) }],
    });
    expect(await executeReplay(api.client, revoke)).toMatchObject({ status: 'done', alreadyApplied: true });
    expect(api.writes()).toEqual([]);
  });

  it('is done when refused but the record is gone anyway', async () => {
    const api = scriptedClient({
      'DELETE /credentials/9/assignments/9-42': [
        { error: { code: 'access-denied', message: 'no', httpcode: 401, statuscode: 800 } },
      ],
      'GET /users/42/credentials': [{ httpcode: 200, body: status(200, 901) }],
    });
    const outcome = await executeReplay(api.client, {
      opId: 'd',
      op: { kind: 'credentialAssignment.delete', credentialid: 9, userid: 42 },
      verifyFirst: false,
    });
    expect(outcome).toMatchObject({ status: 'done', alreadyApplied: true });
  });

  it('needs review when refused and the record is still there (a read-only token)', async () => {
    const api = scriptedClient({
      'DELETE /credentials/9/assignments/9-42': [
        { error: { code: 'access-denied', message: 'no', httpcode: 401, statuscode: 800 } },
      ],
      'GET /users/42/credentials': [
        { httpcode: 200, body: { Credentials: [{ credentialid: 9, link: 'x/9-42' }] } },
      ],
    });
    const outcome = await executeReplay(api.client, {
      opId: 'd',
      op: { kind: 'credentialAssignment.delete', credentialid: 9, userid: 42 },
      verifyFirst: false,
    });
    expect(outcome).toMatchObject({ status: 'needs-review', error: { statuscode: 800 } });
  });

  describe('with a base (what the record held when the removal was decided)', () => {
    const held = (expirationdate: string) => ({
      Credentials: [{ credentialid: 9, userid: 42, expirationdate, link: 'x/9-42' }],
    });
    const removal = (extra: Partial<ReplayRequest> = {}): ReplayRequest => ({
      opId: 'd',
      op: { kind: 'credentialAssignment.delete', credentialid: 9, userid: 42 },
      base: { expirationdate: '06/30/2028' },
      verifyFirst: false,
      ...extra,
    });

    it('is sent while the server still holds that', async () => {
      const api = scriptedClient({
        'GET /users/42/credentials': [{ httpcode: 200, body: held('2028-06-30T00:00:00') }],
        'DELETE /credentials/9/assignments/9-42': [{ httpcode: 202, body: status(202, 703) }],
      });
      expect(await executeReplay(api.client, removal())).toMatchObject({ status: 'done' });
      expect(api.writes()).toEqual([
        { method: 'DELETE', path: '/credentials/9/assignments/9-42', body: undefined },
      ]);
    });

    it('is a conflict, sending nothing, when someone renewed the assignment meanwhile', async () => {
      const api = scriptedClient({
        'GET /users/42/credentials': [{ httpcode: 200, body: held('06/30/2029') }],
      });
      expect(await executeReplay(api.client, removal())).toMatchObject({
        status: 'conflict',
        fields: ['expirationdate'],
      });
      expect(api.writes()).toEqual([]);
    });

    it('is sent anyway once the user chose to keep the removal', async () => {
      const api = scriptedClient({
        'DELETE /credentials/9/assignments/9-42': [{ httpcode: 202, body: status(202, 703) }],
      });
      expect(await executeReplay(api.client, removal({ resolution: 'mine' }))).toMatchObject({
        status: 'done',
      });
      expect(api.writes()).toHaveLength(1);
    });
  });
});

describe('a malformed answer', () => {
  it('is never trusted: the op is retried later', async () => {
    const api = scriptedClient({
      'GET /users/42': [{ httpcode: 200, body: { users: [{ userid: 'not a number' }] } }],
    });
    expect(await executeReplay(api.client, statusChange())).toMatchObject({
      status: 'retry',
      error: { code: 'malformed-response' },
    });
  });
});

describe('replaying a new training assignment', () => {
  const assign: ReplayRequest = {
    opId: 'op3',
    op: { kind: 'trainingAssignment.create', userid: 42, courseid: 7, fields: { duedate: '12/31/2026' } },
    verifyFirst: false,
  };
  const assignment = {
    transcriptid: 9001,
    userid: 42,
    courseid: 7,
    course_name: 'Forklift safety',
    course_status: 'Not Started',
    due_date: '12/31/2026',
  };

  it('reads the assignment back, so the cache can show it with its course and transcript id at once', async () => {
    const api = scriptedClient({
      'POST /trainingassignments/user/42/course/7': [{ httpcode: 201, body: status(201, 703) }],
      'GET /users/42/trainingassignments': [{ httpcode: 200, body: { trainingassignments: [assignment] } }],
    });
    const outcome = await executeReplay(api.client, assign);
    expect(outcome).toMatchObject({
      status: 'done',
      createdId: 9001,
      after: { transcriptid: 9001, course_name: 'Forklift safety', due_date: '12/31/2026' },
    });
    expect(api.writes()).toHaveLength(1);
  });

  it('is done even when the read-back fails: the assignment was made, the next sync brings it', async () => {
    const api = scriptedClient({
      'POST /trainingassignments/user/42/course/7': [
        { httpcode: 201, body: status(201, 703, { transcriptid: 9001 }) },
      ],
      'GET /users/42/trainingassignments': [{ error: { code: 'network', message: 'dropped' } }],
    });
    const outcome = await executeReplay(api.client, assign);
    // the id from the answer still reaches the ops waiting for it
    expect(outcome).toEqual({ status: 'done', createdId: 9001 });
    expect(api.writes()).toHaveLength(1);
  });
});
