/**
 * The seeded dataset generator: the same dataset, seed and `today` always give
 * the same rows. Rows are inserted as they are made (no big arrays), in one
 * transaction, with indexes built after the load.
 */
import { addDaysIso } from '../shared/dates.ts';
import { seededRng, type Rng } from './rng.ts';
import type { Store } from './store.ts';
import { SCHEMA_VERSION } from './schema.ts';
import {
  DATASETS,
  FIRST_SITE_ID,
  FOREIGN_SITE_ID,
  FOREIGN_SIZE,
  OTHER_CUSTOMER,
  OUR_CUSTOMER,
  type DatasetName,
  type DatasetSize,
} from './datasets.ts';
import {
  ASSIGNMENT_METHODS,
  FIRST_NAMES,
  FOREIGN_SITE_NAME,
  HOSTILE,
  LAST_NAMES,
  MODULES,
  PROFILE_CATEGORIES,
  SITE_NAMES,
} from './names.ts';
import { generateDemoCredentials, generateDemoTraining } from './generate-demo.ts';
import {
  credentialName,
  credentialNumber,
  insertCourses,
  insertCredentialCategories,
  type Ctx,
} from './generate-parts.ts';

export interface GenerateOptions {
  dataset: DatasetName;
  seed: number;
  /** YYYY-MM-DD: expirations and due dates are spread around it */
  today: string;
  hostile: boolean;
  /** the sizes to generate instead of the named dataset's (a scaled-down `xl` in tests) */
  size?: DatasetSize;
}

export function generateDataset(store: Store, opts: GenerateOptions): void {
  store.resetForLoad();
  const ctx: Ctx = {
    store,
    rng: seededRng(opts.seed),
    today: opts.today,
    hostile: opts.hostile,
    demo: opts.dataset === 'demo',
    usernames: new Map(),
    ids: {
      user: 10_000,
      email: 50_000,
      profileCategory: 200,
      group: 2_000,
      credentialCategory: 300,
      credential: 5_000,
      course: 700,
      transcript: 1_000_000,
    },
  };
  store.db.exec('BEGIN');
  try {
    MODULES.forEach((m, i) =>
      store.run('INSERT INTO modules VALUES (?, ?, ?)', i + 1, m.moduleName, m.functionName),
    );
    const size = opts.size ?? DATASETS[opts.dataset];
    for (let s = 0; s < size.sites; s++) {
      generateSite(
        ctx,
        FIRST_SITE_ID + s,
        OUR_CUSTOMER,
        siteName(s),
        share(size, s),
        s === 0 && opts.hostile,
      );
    }
    generateSite(ctx, FOREIGN_SITE_ID, OTHER_CUSTOMER, FOREIGN_SITE_NAME, FOREIGN_SIZE, false);
    const meta: Record<string, string> = {
      schema: SCHEMA_VERSION,
      dataset: opts.dataset,
      seed: String(opts.seed),
      today: opts.today,
      hostile: String(opts.hostile),
    };
    for (const [k, v] of Object.entries(meta)) store.setMeta(k, v);
    store.db.exec('COMMIT');
  } catch (err) {
    store.db.exec('ROLLBACK');
    throw err;
  }
  store.finishLoad();
}

/** Site `s`'s name: the names in turn, numbered from their second round ("Riverside Plant 2"). */
function siteName(s: number): string {
  const round = Math.floor(s / SITE_NAMES.length);
  return `${SITE_NAMES[s % SITE_NAMES.length]!}${round > 0 ? ` ${round + 1}` : ''}`;
}

/** Site `s`'s share of a dataset's totals (the first site gets the larger part, unless even). */
function share(size: DatasetSize, s: number): DatasetSize {
  if (size.sites === 1) return size;
  const weight = size.evenSites ? 1 / size.sites : s === 0 ? 0.6 : 0.4 / (size.sites - 1);
  const part = (n: number): number => Math.max(1, Math.round(n * weight));
  return {
    sites: 1,
    users: part(size.users),
    credentials: part(size.credentials),
    credentialAssignments: part(size.credentialAssignments),
    courses: part(size.courses),
    trainingAssignments: part(size.trainingAssignments),
    profileCategories: size.profileCategories,
    credentialCategories: size.credentialCategories,
  };
}

function slug(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function uniqueUsername(ctx: Ctx, first: string, last: string): string {
  const base = `${slug(first)}.${slug(last)}`;
  const n = (ctx.usernames.get(base) ?? 0) + 1;
  ctx.usernames.set(base, n);
  return n === 1 ? base : `${base}${n}`;
}

function generateSite(
  ctx: Ctx,
  siteid: number,
  customerid: number,
  sitename: string,
  size: DatasetSize,
  hostile: boolean,
): void {
  const { store } = ctx;
  const host = `${slug(sitename)}.training.example`;
  store.run(
    'INSERT INTO sites VALUES (?, ?, ?, ?)',
    siteid,
    customerid,
    sitename,
    hostile ? HOSTILE.javascriptUrl : `https://${host}/login`,
  );
  const userids = generateUsers(ctx, siteid, host, size.users, hostile);
  const groupids = generateProfile(ctx, siteid, userids, size.profileCategories, hostile);
  generateSupervisors(ctx, siteid, userids, groupids);
  if (ctx.demo) {
    generateDemoCredentials(ctx, siteid, userids, size, hostile);
    generateDemoTraining(ctx, siteid, userids, size, hostile);
  } else {
    generateCredentials(ctx, siteid, userids, size, hostile);
    generateTraining(ctx, siteid, userids, size, hostile);
  }
}

function pickStatus(rng: Rng): string {
  const r = rng.next();
  return r < 0.7 ? 'Active' : r < 0.85 ? 'Offline' : r < 0.97 ? 'Inactive' : 'Expired';
}

const HOSTILE_NAMES: readonly [string, string][] = [
  [HOSTILE.script, HOSTILE.imgOnerror],
  [HOSTILE.rtlOverride, HOSTILE.control],
  [HOSTILE.svgOnload, HOSTILE.long],
  [HOSTILE.quote, HOSTILE.javascriptUrl],
  [HOSTILE.dataUrl, HOSTILE.script],
];

function generateUsers(ctx: Ctx, siteid: number, host: string, count: number, hostile: boolean): number[] {
  const { store, rng, ids } = ctx;
  const userids: number[] = [];
  const insertUser =
    'INSERT INTO users (userid, siteid, username, firstname, lastname, employeeid, status, usertype) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
  const insertEmail = 'INSERT INTO emails VALUES (?, ?, ?, ?, ?)';
  for (let i = 0; i < count; i++) {
    const userid = ++ids.user;
    const hostileName = hostile ? HOSTILE_NAMES[i] : undefined;
    const first = hostileName?.[0] ?? rng.pick(FIRST_NAMES);
    const last = hostileName?.[1] ?? rng.pick(LAST_NAMES);
    const username = hostileName ? `hostile.user${i + 1}` : uniqueUsername(ctx, first, last);
    const employeeid = rng.chance(0.85) ? String(100_000 + userid * 7 + rng.int(0, 6)) : '';
    store.run(insertUser, userid, siteid, username, first, last, employeeid, pickStatus(rng), 'User');
    userids.push(userid);
    const emails = rng.chance(0.8) ? (rng.chance(0.12) ? 2 : 1) : 0;
    for (let e = 0; e < emails; e++) {
      const address =
        hostileName && e === 0
          ? `"<script>alert(${i + 1})</script>"@${host}`
          : `${username}${e ? '.alt' : ''}@${host}`;
      store.run(
        insertEmail,
        ++ids.email,
        userid,
        address,
        rng.chance(0.95) ? 'Active' : 'Inactive',
        e === 0 ? 1 : 0,
      );
    }
  }
  return userids;
}

function generateProfile(
  ctx: Ctx,
  siteid: number,
  userids: number[],
  categories: number,
  hostile: boolean,
): number[] {
  const { store, rng, ids } = ctx;
  const groupids: number[] = [];
  for (const category of PROFILE_CATEGORIES.slice(0, categories)) {
    const categoryid = ++ids.profileCategory;
    store.run(
      'INSERT INTO profile_categories VALUES (?, ?, ?, ?)',
      categoryid,
      siteid,
      category.name,
      addDaysIso(ctx.today, -rng.int(30, 1500)),
    );
    const catGroups: number[] = [];
    category.groups.forEach((name, i) => {
      const groupid = ++ids.group;
      const groupname = hostile && groupids.length === 0 && i === 0 ? `${name} ${HOSTILE.imgOnerror}` : name;
      store.run('INSERT INTO profile_groups VALUES (?, ?, ?, ?)', groupid, siteid, categoryid, groupname);
      catGroups.push(groupid);
    });
    for (const userid of userids) {
      if (rng.chance(0.9)) store.run('INSERT INTO group_members VALUES (?, ?)', rng.pick(catGroups), userid);
    }
    groupids.push(...catGroups);
  }
  return groupids;
}

/** About 5% supervisors (access over groups and features) and 1% administrators. */
function generateSupervisors(ctx: Ctx, siteid: number, userids: number[], groupids: number[]): void {
  const { store, rng } = ctx;
  const supervisors = rng.sample(userids, Math.max(2, Math.round(userids.length * 0.05)));
  const admins = new Set(rng.sample(supervisors, Math.max(1, Math.round(userids.length * 0.01))));
  supervisors.forEach((userid, i) => {
    for (const groupid of rng.sample(groupids, rng.int(1, 4)))
      store.run('INSERT INTO group_access VALUES (?, ?)', groupid, userid);
    const moduleids = MODULES.map((_, m) => m + 1);
    // the first two supervisors always hold the feature token's module, so its lists are never empty
    const chosen = new Set(rng.sample(moduleids, rng.int(1, 3)));
    if (i < 2) chosen.add(3);
    for (const accessID of [...chosen].sort((a, b) => a - b))
      store.run('INSERT INTO module_access VALUES (?, ?, ?)', siteid, accessID, userid);
    store.run(
      'UPDATE users SET usertype = ? WHERE userid = ?',
      admins.has(userid) ? 'Administrator' : 'Supervisor',
      userid,
    );
  });
}

function generateCredentials(
  ctx: Ctx,
  siteid: number,
  userids: number[],
  size: DatasetSize,
  hostile: boolean,
): void {
  const { store, rng, ids, today } = ctx;
  const categoryids = insertCredentialCategories(ctx, siteid, size.credentialCategories);
  interface Cred {
    id: number;
    start: number;
    expiration: number;
    num: number;
  }
  const creds: Cred[] = [];
  const names = new Set<string>();
  for (let i = 0; i < size.credentials; i++) {
    const name = credentialName(rng, names, i);
    const cred: Cred = {
      id: ++ids.credential,
      start: rng.chance(0.5) ? 1 : 0,
      expiration: rng.chance(0.7) ? 1 : 0,
      num: rng.chance(0.4) ? 1 : 0,
    };
    const description =
      hostile && i === 0 ? HOSTILE.dataUrl : `${name}: proof of ${name.toLowerCase()} for site work.`;
    store.run(
      'INSERT INTO credentials VALUES (?, ?, ?, ?, ?, ?, ?)',
      cred.id,
      categoryids[i % categoryids.length]!,
      name,
      description,
      cred.start,
      cred.expiration,
      cred.num,
    );
    creds.push(cred);
  }
  const insert = 'INSERT INTO credential_assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
  const perUser = size.credentialAssignments / userids.length;
  let hostileNotes = hostile ? 3 : 0;
  for (const userid of userids) {
    const k = Math.min(creds.length, Math.floor(perUser) + (rng.chance(perUser % 1) ? 1 : 0));
    for (const cred of rng.sample(creds, k).sort((a, b) => a.id - b.id)) {
      const start = !cred.start && rng.chance(0.1) ? '' : addDaysIso(today, -rng.int(30, 1500));
      const r = rng.next();
      const expiration =
        !cred.expiration && rng.chance(0.15)
          ? ''
          : addDaysIso(today, r < 0.2 ? -rng.int(1, 365) : r < 0.35 ? rng.int(0, 90) : rng.int(91, 1100));
      const number = cred.num || rng.chance(0.4) ? credentialNumber(rng) : '';
      const notes =
        hostileNotes-- > 0
          ? `${HOSTILE.svgOnload} ${HOSTILE.quote}`
          : rng.chance(0.2)
            ? rng.pick(['Renewal scheduled', 'Copy on file', 'Verified by HR', 'Awaiting card'])
            : '';
      store.run(
        insert,
        cred.id,
        userid,
        start,
        expiration,
        number,
        rng.chance(0.92) ? 'active' : 'inactive',
        rng.chance(0.03) ? rng.int(1, 2) : 0,
        notes,
      );
    }
  }
}

function generateTraining(
  ctx: Ctx,
  siteid: number,
  userids: number[],
  size: DatasetSize,
  hostile: boolean,
): void {
  const { store, rng, ids, today } = ctx;
  const courseids = insertCourses(ctx, siteid, size.courses, hostile, () =>
    rng.chance(0.9) ? 'active' : 'inactive',
  );
  const insert = 'INSERT INTO training_assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  const perUser = size.trainingAssignments / userids.length;
  const minute = (): number => 8 * 60 + 15 * rng.int(0, 36);
  for (const userid of userids) {
    const k = Math.min(courseids.length, Math.floor(perUser) + (rng.chance(perUser % 1) ? 1 : 0));
    for (const courseid of rng.sample(courseids, k).sort((a, b) => a - b)) {
      const start = addDaysIso(today, -rng.int(0, 400));
      const due = addDaysIso(start, rng.int(7, 180));
      const created = addDaysIso(start, -rng.int(0, 14));
      const r = rng.next();
      const status = r < 0.35 ? 'completed' : r < 0.95 ? 'active' : 'inactive';
      store.run(
        insert,
        ++ids.transcript,
        userid,
        courseid,
        siteid,
        status,
        rng.pick(ASSIGNMENT_METHODS),
        start,
        minute(),
        due,
        minute(),
        created,
        minute(),
      );
    }
  }
}
