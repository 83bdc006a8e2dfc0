/**
 * A replay scenario over the reference server, shared by the replay
 * integration test and the benchmark: a deterministic mix of operations over
 * the server's users, and the state the server must end in once all of them
 * are applied (the "intended state"), to compare with its snapshot.
 */
import type { RunningServer, Snapshot } from '../../server/index.ts';
import { toIsoDate } from '../../shared/dates.ts';
import type { OpDraft } from '../../shared/replay-queue/queue.ts';

/** A small seeded PRNG (mulberry32): the same scenario every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Catalog {
  groups: { groupid: number; siteid: number }[];
  modules: number[];
  credentials: { credentialid: number; siteid: number }[];
  courses: { courseid: number; siteid: number }[];
}

function catalogOf(server: RunningServer): Catalog {
  return {
    groups: server.query<{ groupid: number; siteid: number }>(
      'SELECT groupid, siteid FROM profile_groups ORDER BY groupid',
    ),
    modules: server
      .query<{ accessID: number }>('SELECT accessID FROM modules ORDER BY accessID')
      .map((m) => m.accessID),
    credentials: server.query<{ credentialid: number; siteid: number }>(
      'SELECT c.credentialid, k.siteid FROM credentials c JOIN credential_categories k ON k.categoryid = c.categoryid ORDER BY c.credentialid',
    ),
    courses: server.query<{ courseid: number; siteid: number }>(
      'SELECT courseid, siteid FROM courses ORDER BY courseid',
    ),
  };
}

/** The intended state, keyed by username so users created during the replay compare too. */
export interface IntendedState {
  users: Map<string, string>;
  groupAccess: Set<string>;
  moduleAccess: Set<string>;
  credentials: Map<string, string>;
  emails: Set<string>;
  training: Set<string>;
}

const userLine = (u: {
  siteid: number;
  status: string;
  firstname: string;
  lastname: string;
  employeeid: string;
}) => `${u.siteid}|${u.status}|${u.firstname}|${u.lastname}|${u.employeeid}`;

export function stateOf(snapshot: Snapshot): IntendedState {
  const name = new Map(snapshot.users.map((u) => [u.userid, u.username.toLowerCase()]));
  const n = (userid: number) => name.get(userid) ?? `#${userid}`;
  return {
    users: new Map(snapshot.users.map((u) => [u.username.toLowerCase(), userLine(u)])),
    groupAccess: new Set(snapshot.groupAccess.map(([g, u]) => `${g}-${n(u)}`)),
    moduleAccess: new Set(snapshot.moduleAccess.map(([s, a, u]) => `${s}-${a}-${n(u)}`)),
    credentials: new Map(
      snapshot.credentialAssignments.map((c) => [
        `${c.credentialid}-${n(c.userid)}`,
        toIsoDate(c.expirationdate),
      ]),
    ),
    emails: new Set(snapshot.emails.map((e) => `${n(e.userid)}:${e.email.toLowerCase()}`)),
    training: new Set(snapshot.trainingAssignments.map((t) => `${n(t.userid)}-${t.courseid}`)),
  };
}

/** Plain, comparable form (sorted) for toEqual. */
export function comparable(s: IntendedState) {
  return {
    users: [...s.users.entries()].sort(),
    groupAccess: [...s.groupAccess].sort(),
    moduleAccess: [...s.moduleAccess].sort(),
    credentials: [...s.credentials.entries()].sort(),
    emails: [...s.emails].sort(),
    training: [...s.training].sort(),
  };
}

export interface Scenario {
  drafts: OpDraft[];
  intended: IntendedState;
  users: number;
}

/**
 * The mixed scenario: per user a status change and a name change (same target,
 * in order), a group access grant or revoke, a feature grant or revoke, a
 * credential assign/update/delete; every 4th user a training assignment and an
 * e-mail; every 10th user a second status change back; and `newUsers` users
 * created with their e-mail and a group access waiting for the new id.
 * (One long function on purpose: it reads top to bottom as the list above.)
 */
export function mixedScenario(
  server: RunningServer,
  opts: { users: number; newUsers: number; seed: number },
): Scenario {
  const rand = seeded(opts.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
  const snapshot = server.snapshot();
  const catalog = catalogOf(server);
  const intended = stateOf(snapshot);
  // the API cannot remove an assignment with attachments: those are renewed instead
  const attached = new Set(
    snapshot.credentialAssignments
      .filter((c) => c.attachmentcount > 0)
      .map((c) => `${c.credentialid}-${c.userid}`),
  );
  const ourSites = new Set(catalog.groups.map((g) => g.siteid));
  const users = snapshot.users
    .filter((u) => ourSites.has(u.siteid) && /^[a-z0-9._-]+$/i.test(u.username))
    .slice(0, opts.users);
  const drafts: OpDraft[] = [];
  users.forEach((u, i) => {
    const who = u.username.toLowerCase();
    const line = { ...u };
    const status = u.status === 'Active' ? 'Inactive' : 'Active';
    drafts.push({
      op: { kind: 'user.update', userid: u.userid, changes: { status } },
      base: { status: u.status },
      summary: `${who} status`,
    });
    line.status = status;
    const firstname = `${u.firstname}R`;
    drafts.push({
      op: { kind: 'user.update', userid: u.userid, changes: { firstname } },
      base: { firstname: u.firstname },
      summary: `${who} name`,
    });
    line.firstname = firstname;
    if (i % 10 === 0) {
      drafts.push({
        op: { kind: 'user.update', userid: u.userid, changes: { status: u.status } },
        base: { status },
        summary: `${who} status back`,
      });
      line.status = u.status;
    }
    intended.users.set(who, userLine(line));

    const group = pick(catalog.groups.filter((g) => g.siteid === u.siteid));
    const gKey = `${group.groupid}-${who}`;
    const gOp = { siteid: u.siteid, groupid: group.groupid, userid: u.userid };
    if (intended.groupAccess.has(gKey)) {
      drafts.push({ op: { kind: 'groupAccess.revoke', ...gOp }, summary: `${who} revoke group` });
      intended.groupAccess.delete(gKey);
    } else {
      drafts.push({ op: { kind: 'groupAccess.grant', ...gOp }, summary: `${who} grant group` });
      intended.groupAccess.add(gKey);
    }

    const accessID = pick(catalog.modules);
    const mKey = `${u.siteid}-${accessID}-${who}`;
    const mOp = { siteid: u.siteid, accessID, userid: u.userid };
    if (intended.moduleAccess.has(mKey)) {
      drafts.push({ op: { kind: 'moduleAccess.revoke', ...mOp }, summary: `${who} revoke feature` });
      intended.moduleAccess.delete(mKey);
    } else {
      drafts.push({ op: { kind: 'moduleAccess.grant', ...mOp }, summary: `${who} grant feature` });
      intended.moduleAccess.add(mKey);
    }

    const credential = pick(catalog.credentials.filter((c) => c.siteid === u.siteid));
    const cKey = `${credential.credentialid}-${who}`;
    const cIds = { credentialid: credential.credentialid, userid: u.userid };
    const held = intended.credentials.get(cKey);
    if (held === undefined) {
      drafts.push({
        op: {
          kind: 'credentialAssignment.create',
          ...cIds,
          fields: {
            startdate: '01/15/2026',
            expirationdate: '06/30/2028',
            credentialnumber: `RP-${u.userid}`,
          },
        },
        summary: `${who} assign credential`,
      });
      intended.credentials.set(cKey, '2028-06-30');
    } else if (i % 2 === 0 || attached.has(`${credential.credentialid}-${u.userid}`)) {
      drafts.push({
        op: { kind: 'credentialAssignment.update', ...cIds, changes: { expirationdate: '12/31/2031' } },
        base: { expirationdate: held },
        summary: `${who} renew credential`,
      });
      intended.credentials.set(cKey, '2031-12-31');
    } else {
      drafts.push({
        op: { kind: 'credentialAssignment.delete', ...cIds },
        summary: `${who} remove credential`,
      });
      intended.credentials.delete(cKey);
    }

    if (i % 4 === 0) {
      const course = catalog.courses.find(
        (c) => c.siteid === u.siteid && !intended.training.has(`${who}-${c.courseid}`),
      );
      if (course) {
        drafts.push({
          op: {
            kind: 'trainingAssignment.create',
            userid: u.userid,
            courseid: course.courseid,
            fields: { duedate: '2030-03-01' },
          },
          summary: `${who} assign course`,
        });
        intended.training.add(`${who}-${course.courseid}`);
      }
      const email = `replay.${u.userid}@example.test`;
      drafts.push({ op: { kind: 'email.add', userid: u.userid, email }, summary: `${who} add e-mail` });
      intended.emails.add(`${who}:${email}`);
    }
  });

  const site = users[0]?.siteid ?? 101;
  for (let n = 0; n < opts.newUsers; n++) {
    const username = `replay-new-${opts.seed}-${n}`;
    const createId = `create-${opts.seed}-${n}`;
    const targetKey = `user:new:${username}`;
    const fields = { username, firstname: 'New', lastname: `Hire${n}`, employeeid: `RN${n}` };
    drafts.push({
      id: createId,
      targetKey,
      op: { kind: 'user.create', siteid: site, fields },
      summary: `create ${username}`,
    });
    intended.users.set(username, userLine({ siteid: site, status: 'Offline', ...fields }));
    const bound = {
      targetKey,
      dependsOn: [createId],
      bindings: [{ fromOp: createId, field: 'userid' as const }],
    };
    const email = `${username}@example.test`;
    drafts.push({ ...bound, op: { kind: 'email.add', userid: 0, email }, summary: `${username} e-mail` });
    intended.emails.add(`${username}:${email}`);
    const group = catalog.groups.find((g) => g.siteid === site)!;
    drafts.push({
      ...bound,
      op: { kind: 'groupAccess.grant', siteid: site, groupid: group.groupid, userid: 0 },
      summary: `${username} group`,
    });
    intended.groupAccess.add(`${group.groupid}-${username}`);
  }
  return { drafts, intended, users: users.length + opts.newUsers };
}
