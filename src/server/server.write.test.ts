/** Every write: its answer, its effect on later reads and counts, and its validation errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from './index.ts';
import { clientFor, list, one, startTestServer, type Client } from './testing/testkit.ts';

let server: RunningServer;
let api: Client;

beforeAll(async () => {
  server = await startTestServer();
  api = clientFor(server);
});
afterAll(() => server.close());

/** A user of site 101 with no access of any kind, taken fresh for each test. */
let nextPlain = 0;
function plainUser(): { userid: number; username: string } {
  const users = server.query<{ userid: number; username: string }>(
    `SELECT userid, username FROM users WHERE siteid = 101 AND usertype = 'User' AND status = 'Active'
       AND userid NOT IN (SELECT userid FROM group_access)
       AND userid NOT IN (SELECT userid FROM module_access)
     ORDER BY userid`,
  );
  return users[nextPlain++ % users.length]!;
}

const codes = (a: { status: number; body: Record<string, unknown> }): [number, unknown] => [
  a.status,
  a.body.statuscode,
];

describe('PUT /users/{userid}', () => {
  it('answers 202/702 and the new status shows in the user, the lists and the credential counts', async () => {
    const holder = one<{ credentialid: number; userid: number }>(
      server,
      "SELECT a.credentialid, a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid WHERE u.status = 'Active' AND u.siteid = 101 ORDER BY a.credentialid",
    );
    const before = (await api.get(`/credentials/${holder.credentialid}`)).body;
    const answer = await api.put(`/users/${holder.userid}`, { status: 'Inactive' });
    expect(codes(answer)).toEqual([202, 702]);
    expect(answer.body).toMatchObject({ httpcode: 202, status: 'accepted' });
    expect(list<{ status: string }>(await api.get(`/users/${holder.userid}`), 'users')[0]!.status).toBe(
      'Inactive',
    );
    const inList = list<{ userid: number; status: string }>(
      await api.get('/users?status=inactive&limit=1000'),
      'users',
    );
    expect(inList.map((u) => u.userid)).toContain(holder.userid);
    const after = (await api.get(`/credentials/${holder.credentialid}`)).body;
    expect(after.activeusercount).toBe((before.activeusercount as number) - 1);
    expect(after.inactiveusercount).toBe((before.inactiveusercount as number) + 1);
  });

  it('changes names, and the new names show in training assignments and group member lists', async () => {
    const t = one<{ userid: number; transcriptid: number }>(
      server,
      'SELECT userid, transcriptid FROM training_assignments WHERE siteid = 101 ORDER BY transcriptid',
    );
    expect(
      codes(await api.put(`/users/${t.userid}`, { firstname: 'Renée', lastname: 'Okafor-Smith' })),
    ).toEqual([202, 702]);
    const [ta] = list<{ firstname: string; lastname: string }>(
      await api.get(`/trainingassignments/${t.transcriptid}`),
      'trainingassignments',
    );
    expect([ta!.firstname, ta!.lastname]).toEqual(['Renée', 'Okafor-Smith']);
  });

  it('refuses a status it does not know with 400/1001', async () => {
    expect(codes(await api.put(`/users/${plainUser().userid}`, { status: 'Retired' }))).toEqual([400, 1001]);
  });

  it('refuses a username that is taken with 409/1002', async () => {
    const [a, b] = [plainUser(), plainUser()];
    expect(codes(await api.put(`/users/${a.userid}`, { username: b.username.toUpperCase() }))).toEqual([
      409, 1002,
    ]);
  });

  it('refuses a body without any known field with 400/1005', async () => {
    expect(codes(await api.put(`/users/${plainUser().userid}`, { shoesize: 9 }))).toEqual([400, 1005]);
  });

  it('refuses a body that is not JSON with 400/704', async () => {
    expect(
      codes(await api.raw('PUT', `/users/${plainUser().userid}`, { body: '{"status": Inactive' })),
    ).toEqual([400, 704]);
  });

  it('refuses a JSON body that is not an object with 400/1001', async () => {
    expect(codes(await api.put(`/users/${plainUser().userid}`, ['status', 'Inactive']))).toEqual([400, 1001]);
  });
});

describe('POST /sites/{siteid}/users', () => {
  it('answers 201/701 with the new userid, and the user is listed as an Offline User', async () => {
    const answer = await api.post('/sites/101/users', {
      username: 'new.hire',
      password: 'long enough',
      firstname: 'New',
      lastname: 'Hire',
    });
    expect(codes(answer)).toEqual([201, 701]);
    const userid = answer.body.userid as number;
    expect(Number.isInteger(userid)).toBe(true);
    const [u] = list<Record<string, unknown>>(await api.get(`/users/${userid}`), 'users');
    expect(u).toMatchObject({ username: 'new.hire', status: 'Offline', usertype: 'User', siteid: 101 });
  });

  it('refuses a user without a last name with 400/1000', async () => {
    const answer = await api.post('/sites/101/users', { username: 'no.last', firstname: 'No' });
    expect(codes(answer)).toEqual([400, 1000]);
    expect(answer.body.developermessage).toContain('lastname');
  });

  it('refuses a username already taken with 409/1002', async () => {
    expect(
      codes(
        await api.post('/sites/101/users', { username: plainUser().username, firstname: 'A', lastname: 'B' }),
      ),
    ).toEqual([409, 1002]);
  });

  it('refuses a short password with 400/1001', async () => {
    expect(
      codes(
        await api.post('/sites/101/users', {
          username: 'short.pw',
          password: 'abc',
          firstname: 'A',
          lastname: 'B',
        }),
      ),
    ).toEqual([400, 1001]);
  });
});

describe('e-mails', () => {
  it('adds an address (201/701, with its emailid) that the user then lists', async () => {
    const u = plainUser();
    const answer = await api.post(`/users/${u.userid}/emails`, { email: `${u.username}@new.example` });
    expect(codes(answer)).toEqual([201, 701]);
    const emails = list<{ emailid: number; email: string }>(
      await api.get(`/users/${u.userid}/emails`),
      'emails',
    );
    expect(emails).toContainEqual(
      expect.objectContaining({ emailid: answer.body.emailid, email: `${u.username}@new.example` }),
    );
  });

  it('refuses an address already in use with 409/1002, and one that is not an address with 400/1001', async () => {
    const taken = one<{ email: string }>(server, 'SELECT email FROM emails ORDER BY emailid');
    const u = plainUser();
    expect(codes(await api.post(`/users/${u.userid}/emails`, { email: taken.email.toUpperCase() }))).toEqual([
      409, 1002,
    ]);
    expect(codes(await api.post(`/users/${u.userid}/emails`, { email: 'not an address' }))).toEqual([
      400, 1001,
    ]);
    expect(codes(await api.post(`/users/${u.userid}/emails`, {}))).toEqual([400, 1000]);
  });

  it('removes an address for good (202/703): reading it is then 901 and removing it again 800', async () => {
    const e = one<{ emailid: number; userid: number }>(
      server,
      'SELECT emailid, userid FROM emails ORDER BY emailid DESC',
    );
    expect(codes(await api.del(`/users/${e.userid}/emails/${e.emailid}`))).toEqual([202, 703]);
    expect((await api.get(`/users/${e.userid}/emails/${e.emailid}`)).body.statuscode).toBe(901);
    expect(codes(await api.del(`/users/${e.userid}/emails/${e.emailid}`))).toEqual([401, 800]);
  });
});

describe('group access', () => {
  it("grants (201/701): the user shows in the group's list and the group in the user's, counts follow, the user becomes a Supervisor", async () => {
    const u = plainUser();
    const group = one<{ groupid: number }>(
      server,
      'SELECT groupid FROM profile_groups WHERE siteid = 101 ORDER BY groupid',
    );
    const before = list<{ accessusercount: number }>(
      await api.get(`/sites/101/access/groups/${group.groupid}`),
      'groups',
    )[0]!.accessusercount;
    expect(
      codes(await api.post(`/sites/101/access/groups/${group.groupid}/users`, { userid: String(u.userid) })),
    ).toEqual([201, 701]);
    expect(
      list<{ userid: number }>(await api.get(`/sites/101/access/groups/${group.groupid}/users`), 'users').map(
        (x) => x.userid,
      ),
    ).toContain(u.userid);
    expect(
      list<{ groupid: number }>(await api.get(`/users/${u.userid}/access/groups`), 'groups').map(
        (g) => g.groupid,
      ),
    ).toEqual([group.groupid]);
    expect(
      list<{ accessusercount: number }>(
        await api.get(`/sites/101/access/groups/${group.groupid}`),
        'groups',
      )[0]!.accessusercount,
    ).toBe(before + 1);
    expect(list<{ usertype: string }>(await api.get(`/users/${u.userid}`), 'users')[0]!.usertype).toBe(
      'Supervisor',
    );
    expect(
      codes(await api.post(`/sites/101/access/groups/${group.groupid}/users`, { userid: u.userid })),
    ).toEqual([409, 1002]);

    expect(codes(await api.del(`/users/${u.userid}/access/groups/${group.groupid}`))).toEqual([202, 703]);
    expect((await api.get(`/users/${u.userid}/access/groups`)).body.statuscode).toBe(901);
    expect(list<{ usertype: string }>(await api.get(`/users/${u.userid}`), 'users')[0]!.usertype).toBe(
      'User',
    );
    expect(codes(await api.del(`/users/${u.userid}/access/groups/${group.groupid}`))).toEqual([401, 800]);
  });

  it('refuses a grant without a userid with 400/1000', async () => {
    expect(codes(await api.post('/sites/101/access/groups/2001/users', {}))).toEqual([400, 1000]);
  });
});

describe('feature access', () => {
  it("grants (201/701) and revokes (202/703): the user shows in the feature's list and the feature in the user's", async () => {
    const u = plainUser();
    expect(codes(await api.post('/sites/101/access/modules/5/users', { userid: u.userid }))).toEqual([
      201, 701,
    ]);
    expect(
      list<{ userid: number }>(await api.get('/sites/101/access/modules/5/users'), 'users').map(
        (x) => x.userid,
      ),
    ).toContain(u.userid);
    expect(
      list<{ accessID: number }>(await api.get(`/users/${u.userid}/access/modules`), 'modules').map(
        (m) => m.accessID,
      ),
    ).toEqual([5]);
    expect(list(await api.get(`/users/${u.userid}/access/modules/5`), 'modules')).toHaveLength(1);
    expect(codes(await api.post('/sites/101/access/modules/5/users', { userid: u.userid }))).toEqual([
      409, 1002,
    ]);
    expect(codes(await api.del(`/users/${u.userid}/access/modules/5`))).toEqual([202, 703]);
    expect((await api.get(`/users/${u.userid}/access/modules/5`)).body.statuscode).toBe(901);
  });
});

describe('credential assignments', () => {
  /** A credential of site 101 that requires an expiration date, and a user who does not hold it. */
  function credentialAndUser(): { credentialid: number; userid: number } {
    const k = one<{ credentialid: number }>(
      server,
      `SELECT k.credentialid FROM credentials k JOIN credential_categories c ON c.categoryid = k.categoryid
      WHERE c.siteid = 101 AND k.requiredexpirationdate = 1 ORDER BY k.credentialid`,
    );
    const u = one<{ userid: number }>(
      server,
      `SELECT userid FROM users WHERE siteid = 101 AND status = 'Active'
      AND userid NOT IN (SELECT userid FROM credential_assignments WHERE credentialid = ?) ORDER BY userid`,
      k.credentialid,
    );
    return { credentialid: k.credentialid, userid: u.userid };
  }

  it('assigns (201/701, with the assignment id), shows in both lists, and counts the holder', async () => {
    const { credentialid, userid } = credentialAndUser();
    const before = (await api.get(`/credentials/${credentialid}`)).body.activeusercount as number;
    const answer = await api.post(`/credentials/${credentialid}/assignments`, {
      userid,
      startdate: '2026-01-05',
      expirationdate: '01/05/2027',
      credentialnumber: 'FL-1',
      notes: 'from test',
    });
    expect(codes(answer)).toEqual([201, 701]);
    expect(answer.body.assignmentid).toBe(`${credentialid}-${userid}`);
    const mine = list<Record<string, unknown>>(
      await api.get(`/users/${userid}/credentials?credentialnumber=fl-1`),
      'Credentials',
    );
    expect(mine[0]).toMatchObject({
      credentialid,
      startdate: '01/05/2026',
      expirationdate: '01/05/2027',
      status: 'active',
      notes: 'from test',
    });
    const holders = list<{ userid: number }>(
      await api.get(`/credentials/${credentialid}/assignments?limit=1000`),
      'Credentials',
    );
    expect(holders.map((h) => h.userid)).toContain(userid);
    expect((await api.get(`/credentials/${credentialid}`)).body.activeusercount).toBe(before + 1);
    expect(
      codes(
        await api.post(`/credentials/${credentialid}/assignments`, {
          userid,
          expirationdate: '2027-01-01',
          startdate: '2026-01-01',
          credentialnumber: 'X',
        }),
      ),
    ).toEqual([409, 1002]);
  });

  it("refuses an assignment without the credential's required dates with 400/1000", async () => {
    const { credentialid, userid } = credentialAndUser();
    const answer = await api.post(`/credentials/${credentialid}/assignments`, { userid });
    expect(codes(answer)).toEqual([400, 1000]);
    expect(answer.body.developermessage).toContain('expirationdate');
  });

  it('refuses an expiration before the start, or a date it cannot read, with 400/1001', async () => {
    const { credentialid, userid } = credentialAndUser();
    const base = { userid, startdate: '2026-05-01', credentialnumber: 'N-1' };
    expect(
      codes(
        await api.post(`/credentials/${credentialid}/assignments`, { ...base, expirationdate: '2026-04-01' }),
      ),
    ).toEqual([400, 1001]);
    expect(
      codes(
        await api.post(`/credentials/${credentialid}/assignments`, { ...base, expirationdate: '31/31/2026' }),
      ),
    ).toEqual([400, 1001]);
  });

  it('updates (202/702) and removes (202/703) an assignment', async () => {
    const a = one<{ credentialid: number; userid: number }>(
      server,
      'SELECT credentialid, userid FROM credential_assignments WHERE attachmentcount = 0 ORDER BY credentialid, userid',
    );
    const path = `/credentials/${a.credentialid}/assignments/${a.credentialid}-${a.userid}`;
    expect(codes(await api.put(path, { notes: 'renewed', expirationdate: '12/31/2030' }))).toEqual([
      202, 702,
    ]);
    expect(list<Record<string, unknown>>(await api.get(path), 'Credentials')[0]).toMatchObject({
      notes: 'renewed',
      expirationdate: '12/31/2030',
    });
    expect(codes(await api.put(path, {}))).toEqual([400, 1005]);
    expect(codes(await api.del(path))).toEqual([202, 703]);
    expect((await api.get(path)).body.statuscode).toBe(901);
    expect(codes(await api.del(path))).toEqual([401, 800]);
  });

  it('refuses to clear a required date with 400/1001', async () => {
    const a = one<{ credentialid: number; userid: number }>(
      server,
      `SELECT a.credentialid, a.userid FROM credential_assignments a
      JOIN credentials k ON k.credentialid = a.credentialid
      JOIN users u ON u.userid = a.userid
      WHERE k.requiredexpirationdate = 1 AND u.siteid = 101 ORDER BY a.credentialid DESC`,
    );
    expect(
      codes(
        await api.put(`/credentials/${a.credentialid}/assignments/${a.credentialid}-${a.userid}`, {
          expirationdate: '',
        }),
      ),
    ).toEqual([400, 1001]);
  });

  it('refuses to remove an assignment that has attachments with 409/1004', async () => {
    const a = one<{ credentialid: number; userid: number }>(
      server,
      `SELECT a.credentialid, a.userid FROM credential_assignments a JOIN users u ON u.userid = a.userid
      WHERE u.siteid = 101 ORDER BY a.credentialid DESC, a.userid DESC`,
    );
    expect(
      server.mutate({
        resource: 'credentialAssignment',
        id: `${a.credentialid}-${a.userid}`,
        changes: { attachmentcount: 2 },
      }),
    ).toBe(true);
    expect(
      codes(await api.del(`/credentials/${a.credentialid}/assignments/${a.credentialid}-${a.userid}`)),
    ).toEqual([409, 1004]);
  });
});

describe('training assignments', () => {
  function userAndNewCourse(): { userid: number; courseid: number } {
    const c = one<{ courseid: number }>(
      server,
      'SELECT courseid FROM courses WHERE siteid = 101 ORDER BY courseid DESC',
    );
    const u = one<{ userid: number }>(
      server,
      'SELECT userid FROM users WHERE siteid = 101 AND userid NOT IN (SELECT userid FROM training_assignments WHERE courseid = ?) ORDER BY userid',
      c.courseid,
    );
    return { userid: u.userid, courseid: c.courseid };
  }

  it('assigns a course (201/701, with the transcriptid), listed for the user, the course and the site', async () => {
    const { userid, courseid } = userAndNewCourse();
    const answer = await api.post(`/trainingassignments/user/${userid}/course/${courseid}`, {
      duedate: '07/31/2026',
      assignmentmethod: 'Assigned by coordinator',
    });
    expect(codes(answer)).toEqual([201, 701]);
    const transcriptid = answer.body.transcriptid as number;
    const [t] = list<Record<string, unknown>>(
      await api.get(`/trainingassignments/${transcriptid}`),
      'trainingassignments',
    );
    expect(t).toMatchObject({
      userid,
      courseid,
      course_status: 'active',
      due_date: 'July 31 2026 09:00:00',
      due_time: '09:00 AM',
      assignment_method: 'Assigned by coordinator',
    });
    expect(
      list<{ transcriptid: number }>(
        await api.get(`/users/${userid}/trainingassignments`),
        'trainingassignments',
      ).map((x) => x.transcriptid),
    ).toContain(transcriptid);
    expect(
      list(
        await api.get(`/sites/101/course/${courseid}/trainingassignments?transcriptid=${transcriptid}`),
        'trainingassignments',
      ),
    ).toHaveLength(1);
    expect(codes(await api.post(`/trainingassignments/user/${userid}/course/${courseid}`))).toEqual([
      409, 1002,
    ]);
  });

  it('updates status and dates (202/702), refusing a status it does not know with 400/1001', async () => {
    const t = one<{ transcriptid: number }>(
      server,
      'SELECT transcriptid FROM training_assignments ORDER BY transcriptid',
    );
    expect(
      codes(
        await api.put(`/trainingassignments/${t.transcriptid}`, {
          coursestatus: 'completed',
          duedate: '2026-12-01',
        }),
      ),
    ).toEqual([202, 702]);
    expect(
      list<Record<string, unknown>>(
        await api.get(`/trainingassignments/${t.transcriptid}`),
        'trainingassignments',
      )[0],
    ).toMatchObject({ course_status: 'completed', due_date: expect.stringMatching(/^December 01 2026 /) });
    expect(
      codes(await api.put(`/trainingassignments/${t.transcriptid}`, { coursestatus: 'paused' })),
    ).toEqual([400, 1001]);
  });

  it('removes an assignment (202/703) for good', async () => {
    const t = one<{ transcriptid: number }>(
      server,
      'SELECT transcriptid FROM training_assignments ORDER BY transcriptid DESC',
    );
    expect(codes(await api.del(`/trainingassignments/${t.transcriptid}`))).toEqual([202, 703]);
    expect((await api.get(`/trainingassignments/${t.transcriptid}`)).body.statuscode).toBe(901);
  });
});

describe('transactions', () => {
  it('leaves the data exactly as it was when a write is refused', async () => {
    const before = server.snapshot();
    await api.post('/sites/101/users', {
      username: plainUser().username,
      firstname: 'Dup',
      lastname: 'Licate',
    });
    await api.put(`/users/${plainUser().userid}`, { firstname: 'Valid', status: 'Nope' });
    expect(server.snapshot()).toEqual(before);
  });
});

describe('counting writes per target', () => {
  it('counts every write that reached a handler, a resend answered 1002 included, and no read', async () => {
    const group = one<{ groupid: number; siteid: number }>(
      server,
      'SELECT groupid, siteid FROM profile_groups ORDER BY groupid',
    );
    const user = plainUser();
    const target = `POST /sites/${group.siteid}/access/groups/${group.groupid}/users`;
    const before = server.writeCounts().get(target) ?? 0;
    const first = await api.post(`/sites/${group.siteid}/access/groups/${group.groupid}/users`, {
      userid: user.userid,
    });
    const again = await api.post(`/sites/${group.siteid}/access/groups/${group.groupid}/users`, {
      userid: user.userid,
    });
    await api.get(`/users/${user.userid}/access/groups`);
    expect(first.status).toBeLessThan(300);
    expect(codes(again)).toEqual([409, 1002]);
    expect((server.writeCounts().get(target) ?? 0) - before).toBe(2);
    expect([...server.writeCounts().keys()].every((key) => !key.startsWith('GET '))).toBe(true);
  });

  it('does not count a write refused for its token', async () => {
    const user = plainUser();
    const before = server.writeCounts().get(`PUT /users/${user.userid}`) ?? 0;
    await clientFor(server, null).put(`/users/${user.userid}`, { status: 'Inactive' });
    expect(server.writeCounts().get(`PUT /users/${user.userid}`) ?? 0).toBe(before);
  });
});
