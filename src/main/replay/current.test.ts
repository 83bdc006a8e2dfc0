import { describe, expect, it } from 'vitest';
import { toAppError } from '../ipc/errors.ts';
import { readCurrent } from './current.ts';
import type { ReplayClient } from './read.ts';

const answering = (body: unknown): ReplayClient => ({ request: async () => ({ httpcode: 200, body, statusBody: null }) });

const user = { userid: 7, siteid: 101, username: 'ann', firstname: 'Ann', lastname: 'Lee', employeeid: 'E1', status: 'Inactive', usertype: 'User', email: [], links: [] };

describe('replay:read, the undo preview’s look at the server', () => {
  it('gives the record as the replay would read it before writing', async () => {
    const state = await readCurrent(answering({ users: [user] }), { kind: 'user.update', userid: 7, changes: { status: 'Active' } });
    expect(state).toMatchObject({ present: true, id: 7, record: { status: 'Inactive', username: 'ann' } });
  });

  it('says a record is gone when the server has none', async () => {
    const state = await readCurrent(answering({ groups: [] }), { kind: 'groupAccess.revoke', siteid: 101, groupid: 5, userid: 7 });
    expect(state).toEqual({ present: false });
  });

  it('refuses an answer it cannot read with an error the user sees, never a guess', async () => {
    const failure = await readCurrent(answering({ users: [{ userid: 'seven' }] }), { kind: 'user.update', userid: 7, changes: { status: 'Active' } }).catch((err: unknown) => err);
    expect(toAppError(failure)).toMatchObject({ code: 'malformed-response', message: expect.stringContaining('could not be read') });
  });
});
