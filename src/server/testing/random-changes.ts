/**
 * Random changes behind the client's back, deterministic by seed: what another admin
 * and the platform itself do between two syncs. Field changes go through the
 * reference server's admin mutation (as a platform edit would: no API rule applies);
 * access and new people go through the API with another admin's token.
 */
import type { RunningServer } from '../index.ts';
import type { Client } from './testkit.ts';
import { seededRng, type Rng } from '../rng.ts';
import { OUR_CUSTOMER } from '../datasets.ts';

interface Options {
  seed: number;
  count: number;
  /** the sync's page size: deletions are made at its boundaries */
  pageSize: number;
}

type Change = (rng: Rng, ctx: Ctx) => Promise<boolean> | boolean;

interface Ctx {
  server: RunningServer;
  api: Client;
  pageSize: number;
  seed: number;
  made: number;
}

const OUR_SITES = `(SELECT siteid FROM sites WHERE customerid = ${OUR_CUSTOMER})`;

const ids = <T>(ctx: Ctx, sql: string): T[] => ctx.server.query<T>(sql);
const someUser = (rng: Rng, ctx: Ctx) =>
  rng.pick(
    ids<{ userid: number; siteid: number }>(
      ctx,
      `SELECT userid, siteid FROM users WHERE siteid IN ${OUR_SITES}`,
    ),
  );
const isoDay = (rng: Rng) =>
  `20${rng.int(24, 29)}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
const word = (rng: Rng, ctx: Ctx) =>
  `${rng.pick(['Ana', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal'])}${ctx.seed}x${ctx.made}`;

const rename: Change = (rng, ctx) =>
  ctx.server.mutate({
    resource: 'user',
    id: someUser(rng, ctx).userid,
    changes: { [rng.pick(['firstname', 'lastname'])]: word(rng, ctx) },
  });
const status: Change = (rng, ctx) =>
  ctx.server.mutate({
    resource: 'user',
    id: someUser(rng, ctx).userid,
    changes: { status: rng.pick(['Active', 'Inactive', 'Offline']) },
  });
/** a change of the same length deep in a page: the page's size does not give it away */
const employeeId: Change = (rng, ctx) => {
  const u = ctx.server.query<{ userid: number; employeeid: string }>(
    `SELECT userid, employeeid FROM users WHERE siteid IN ${OUR_SITES} AND employeeid <> ''`,
  );
  const one = rng.pick(u);
  const flipped = one.employeeid.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10));
  return ctx.server.mutate({ resource: 'user', id: one.userid, changes: { employeeid: flipped } });
};

/** the last person of a page or the first of the next, in the order the site's users are listed */
const deleteAtBoundary: Change = (rng, ctx) => {
  const site = rng.pick(
    ids<{ siteid: number }>(ctx, `SELECT siteid FROM sites WHERE siteid IN ${OUR_SITES}`),
  ).siteid;
  const users = ids<{ userid: number }>(
    ctx,
    `SELECT userid FROM users WHERE siteid = ${site} ORDER BY userid`,
  );
  const boundaries = users.filter((_, i) => i % ctx.pageSize === 0 || i % ctx.pageSize === ctx.pageSize - 1);
  if (boundaries.length === 0) return false;
  return ctx.server.mutate({ resource: 'user', id: rng.pick(boundaries).userid, delete: true });
};

const email: Change = (rng, ctx) => {
  const e = ids<{ emailid: number }>(
    ctx,
    `SELECT emailid FROM emails WHERE userid IN (SELECT userid FROM users WHERE siteid IN ${OUR_SITES})`,
  );
  if (e.length === 0) return false;
  const one = rng.pick(e).emailid;
  if (rng.chance(0.5)) return ctx.server.mutate({ resource: 'email', id: one, delete: true });
  return ctx.server.mutate({
    resource: 'email',
    id: one,
    changes: { email: `${word(rng, ctx).toLowerCase()}@example.org` },
  });
};

const credential: Change = (rng, ctx) => {
  const a = ids<{ id: string }>(
    ctx,
    `SELECT credentialid || '-' || userid AS id FROM credential_assignments WHERE userid IN (SELECT userid FROM users WHERE siteid IN ${OUR_SITES})`,
  );
  const one = rng.pick(a).id;
  if (rng.chance(0.25)) return ctx.server.mutate({ resource: 'credentialAssignment', id: one, delete: true });
  return ctx.server.mutate({
    resource: 'credentialAssignment',
    id: one,
    changes: { [rng.pick(['expirationdate', 'startdate'])]: isoDay(rng) },
  });
};

const training: Change = (rng, ctx) => {
  const t = ids<{ transcriptid: number }>(
    ctx,
    `SELECT transcriptid FROM training_assignments WHERE userid IN (SELECT userid FROM users WHERE siteid IN ${OUR_SITES})`,
  );
  const one = rng.pick(t).transcriptid;
  if (rng.chance(0.2)) return ctx.server.mutate({ resource: 'trainingAssignment', id: one, delete: true });
  if (rng.chance(0.5))
    return ctx.server.mutate({
      resource: 'trainingAssignment',
      id: one,
      changes: { coursestatus: rng.pick(['completed', 'not started', 'in progress']) },
    });
  return ctx.server.mutate({ resource: 'trainingAssignment', id: one, changes: { duedate: isoDay(rng) } });
};

const access: Change = async (rng, ctx) => {
  const u = someUser(rng, ctx);
  const has = ids<{ groupid: number }>(ctx, `SELECT groupid FROM group_access WHERE userid = ${u.userid}`);
  if (has.length > 0 && rng.chance(0.5))
    return (await ctx.api.del(`/users/${u.userid}/access/groups/${rng.pick(has).groupid}`)).status < 300;
  const groups = ids<{ groupid: number }>(
    ctx,
    `SELECT groupid FROM profile_groups WHERE siteid = ${u.siteid} AND groupid NOT IN (SELECT groupid FROM group_access WHERE userid = ${u.userid})`,
  );
  if (groups.length === 0) return false;
  return (
    (
      await ctx.api.post(`/sites/${u.siteid}/access/groups/${rng.pick(groups).groupid}/users`, {
        userid: u.userid,
      })
    ).status < 300
  );
};

const newPerson: Change = async (rng, ctx) => {
  const site = rng.pick(
    ids<{ siteid: number }>(ctx, `SELECT siteid FROM sites WHERE siteid IN ${OUR_SITES}`),
  ).siteid;
  const name = word(rng, ctx);
  return (
    (
      await ctx.api.post(`/sites/${site}/users`, {
        username: `new.${name.toLowerCase()}`,
        firstname: name,
        lastname: 'Newcomer',
        status: 'Active',
      })
    ).status < 300
  );
};

/** weights: mostly field changes, some deletions, a few new people */
const CHANGES: [Change, number][] = [
  [rename, 14],
  [status, 10],
  [employeeId, 8],
  [deleteAtBoundary, 4],
  [email, 10],
  [credential, 16],
  [training, 26],
  [access, 8],
  [newPerson, 4],
];

function pickChange(rng: Rng): Change {
  const total = CHANGES.reduce((n, [, w]) => n + w, 0);
  let at = rng.next() * total;
  for (const [change, weight] of CHANGES) {
    at -= weight;
    if (at < 0) return change;
  }
  return CHANGES[0]![0];
}

/** Makes `count` random changes; returns how many took (a pick may find nothing to change). */
export async function randomChanges(
  server: RunningServer,
  api: Client,
  options: Options,
): Promise<{ applied: number }> {
  const rng = seededRng(options.seed);
  const ctx: Ctx = { server, api, pageSize: options.pageSize, seed: options.seed, made: 0 };
  for (let i = 0; i < options.count; i++) {
    if (await pickChange(rng)(rng, ctx)) ctx.made += 1;
  }
  return { applied: ctx.made };
}
