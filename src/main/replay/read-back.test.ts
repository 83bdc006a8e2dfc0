import { describe, expect, it } from 'vitest';
import type { ReplayRequest } from '../../shared/ipc.ts';
import { executeReplay, type ReplayClient } from './index.ts';

/** A scripted API: answers by "METHOD path" in order; anything unscripted fails like a network error. */
function scriptedClient(script: Record<string, { httpcode: number; body: unknown }[]>) {
  const calls: string[] = [];
  const client: ReplayClient = {
    async request(method, path) {
      calls.push(`${method} ${path}`);
      const answer = script[`${method} ${path}`]?.shift();
      if (!answer)
        throw Object.assign(new Error('unreachable'), {
          appError: { code: 'network', message: 'unreachable' },
          maybeSent: false,
        });
      return { httpcode: answer.httpcode, body: answer.body, statusBody: null };
    },
  };
  return { client, calls };
}

const ok = (statuscode: number, extra: Record<string, unknown> = {}) => ({
  httpcode: 201,
  body: { httpcode: 201, statuscode, status: 's', developermessage: 'd', moreinfo: 'm', ...extra },
});
const person = (fields: Record<string, unknown> = {}) => ({
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
const grant: ReplayRequest = {
  opId: 'g',
  op: { kind: 'groupAccess.grant', siteid: 101, groupid: 5, userid: 42 },
  verifyFirst: false,
};

describe('after an op is done, the platform is asked what it made of it', () => {
  it('reads the grantee back after a grant: the user type the platform gave comes with the outcome', async () => {
    const api = scriptedClient({
      'POST /sites/101/access/groups/5/users': [ok(701)],
      'GET /users/42': [{ httpcode: 200, body: { users: [person({ usertype: 'Supervisor' })] } }],
    });
    const outcome = await executeReplay(api.client, grant);
    expect(outcome).toMatchObject({
      status: 'done',
      readBack: { user: { userid: 42, usertype: 'Supervisor' } },
    });
  });

  it('reads a created person back under the new id: the status the platform gave comes with the outcome', async () => {
    const api = scriptedClient({
      'POST /sites/101/users': [ok(701, { userid: 77 })],
      'GET /users/77': [{ httpcode: 200, body: { users: [person({ userid: 77, status: 'Offline' })] } }],
    });
    const outcome = await executeReplay(api.client, {
      opId: 'c',
      op: {
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'ann', firstname: 'Ann', lastname: 'Lee' },
      },
      verifyFirst: false,
    });
    expect(outcome).toMatchObject({
      status: 'done',
      createdId: 77,
      readBack: { user: { status: 'Offline' } },
    });
  });

  it('reads a credential assignment back as the server holds it', async () => {
    const api = scriptedClient({
      'POST /credentials/9/assignments': [ok(701)],
      'GET /users/42/credentials': [
        {
          httpcode: 200,
          body: {
            Credentials: [
              {
                credentialid: 9,
                userid: 42,
                startdate: '01/15/2026',
                expirationdate: '06/30/2028',
                status: 'Active',
                credentialnumber: 'N-1',
              },
            ],
          },
        },
      ],
      'GET /users/42': [{ httpcode: 200, body: { users: [person()] } }],
    });
    const outcome = await executeReplay(api.client, {
      opId: 'a',
      op: {
        kind: 'credentialAssignment.create',
        credentialid: 9,
        userid: 42,
        fields: { expirationdate: '2028-06-30' },
      },
      verifyFirst: false,
    });
    expect(outcome).toMatchObject({ status: 'done', after: { credentialnumber: 'N-1', status: 'Active' } });
  });

  it('stays done when the read-back fails: only freshness waits for the next sync', async () => {
    const api = scriptedClient({ 'POST /sites/101/access/groups/5/users': [ok(701)] });
    const outcome = await executeReplay(api.client, grant);
    expect(outcome).toEqual({ status: 'done' });
    expect(api.calls).toEqual(['POST /sites/101/access/groups/5/users', 'GET /users/42']);
  });
});
