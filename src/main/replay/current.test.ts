import { describe, expect, it } from 'vitest';
import { toAppError } from '../ipc/errors.ts';
import { readCurrent } from './current.ts';
import { itemsOf, type ReplayClient } from './read.ts';

const answering = (body: unknown): ReplayClient => ({
  request: async () => ({ httpcode: 200, body, statusBody: null }),
});

const user = {
  userid: 7,
  siteid: 101,
  username: 'ann',
  firstname: 'Ann',
  lastname: 'Lee',
  employeeid: 'E1',
  status: 'Inactive',
  usertype: 'User',
  email: [],
  links: [],
};

describe('replay:read, the undo preview’s look at the server', () => {
  it('gives the record as the replay would read it before writing', async () => {
    const state = await readCurrent(answering({ users: [user] }), {
      kind: 'user.update',
      userid: 7,
      changes: { status: 'Active' },
    });
    expect(state).toMatchObject({ present: true, id: 7, record: { status: 'Inactive', username: 'ann' } });
  });

  it('says a record is gone when the server has none', async () => {
    const state = await readCurrent(answering({ groups: [] }), {
      kind: 'groupAccess.revoke',
      siteid: 101,
      groupid: 5,
      userid: 7,
    });
    expect(state).toEqual({ present: false });
  });

  it('refuses an answer it cannot read with an error the user sees, never a guess', async () => {
    const failure = await readCurrent(answering({ users: [{ userid: 'seven' }] }), {
      kind: 'user.update',
      userid: 7,
      changes: { status: 'Active' },
    }).catch((err: unknown) => err);
    // the record in words (no route, no API field name): it has no readable name, and its id is what is wrong
    expect(toAppError(failure)).toEqual({
      code: 'malformed-response',
      message: 'The platform’s answer could not be read: row 1, a person: the id is not a number.',
    });
  });

  it('names a bad record of a later page by its row in the whole list, and by its name', () => {
    const page = {
      users: [user, { ...user, userid: 8, firstname: 'Bo', lastname: 'Chen', status: { code: 2 } }],
    };
    const failure = (() => {
      try {
        return itemsOf(page, ['users'], 'user', 1001);
      } catch (err) {
        return err;
      }
    })();
    expect(toAppError(failure).message).toBe(
      'The platform’s answer could not be read: row 1002, Bo Chen: the status is not text.',
    );
  });
});
