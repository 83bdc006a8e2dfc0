/**
 * The `demo` dataset's credentials and training, drawn so the site looks like a
 * coordinator's own: most people compliant, a few with something expired, some
 * with something to renew soon, a minority of training overdue, a handful
 * missing a credential everyone else at their site holds. The other datasets
 * (benchmarks, tests) keep generate.ts's uniform spread, byte for byte.
 * The shares are documented in src/server/README.md ("The demo site").
 */
import { addDaysIso } from '../shared/dates.ts';
import type { DatasetSize } from './datasets.ts';
import {
  credentialName,
  credentialNumber,
  insertCourses,
  insertCredentialCategories,
  type Ctx,
} from './generate-parts.ts';
import { ASSIGNMENT_METHODS, HOSTILE } from './names.ts';
import type { Rng } from './rng.ts';

/** The shares the demo is drawn with (per person or per record, as named). */
const DEMO_SHARES = {
  /** people holding one expired credential (expired 1–120 days ago) */
  peopleWithExpired: 0.04,
  /** people lacking one of the credentials everyone else at their site holds */
  peopleMissingCredential: 0.02,
  /** people with one credential whose required expiration date is blank */
  peopleMissingDate: 0.01,
  /** credential assignments expiring within 30, 31–60 and 61–90 days (each) */
  expiringPerWindow: 0.025,
  /** training assignments completed */
  trainingCompleted: 0.55,
  /** training assignments not completed whose due date has passed */
  openTrainingOverdue: 0.05,
  /** training assignments not completed, due within 30 days */
  openTrainingDueSoon: 0.15,
} as const;

interface DemoCredential {
  id: number;
  start: boolean;
  expiration: boolean;
  num: boolean;
}

/** Every site's credentials, with which dates each one requires varied by position. */
function insertDemoCredentials(
  ctx: Ctx,
  siteid: number,
  size: DatasetSize,
  hostile: boolean,
): DemoCredential[] {
  const { store, rng, ids } = ctx;
  const categoryids = insertCredentialCategories(ctx, siteid, size.credentialCategories);
  const names = new Set<string>();
  const creds: DemoCredential[] = [];
  for (let i = 0; i < size.credentials; i++) {
    const name = credentialName(rng, names, i);
    const cred = { id: ++ids.credential, start: i % 2 === 0, expiration: i % 4 !== 3, num: i % 3 === 0 };
    const description =
      hostile && i === 0 ? HOSTILE.dataUrl : `${name}: proof of ${name.toLowerCase()} for site work.`;
    store.run(
      'INSERT INTO credentials VALUES (?, ?, ?, ?, ?, ?, ?)',
      cred.id,
      categoryids[i % categoryids.length]!,
      name,
      description,
      +cred.start,
      +cred.expiration,
      +cred.num,
    );
    creds.push(cred);
  }
  return creds;
}

/** Days from today of a credential's expiration that is neither expired nor missing. */
function currentExpiration(rng: Rng): number {
  const r = rng.next();
  const w = DEMO_SHARES.expiringPerWindow;
  return r < w
    ? rng.int(0, 30)
    : r < 2 * w
      ? rng.int(31, 60)
      : r < 3 * w
        ? rng.int(61, 90)
        : rng.int(91, 1100);
}

/** Everyone at a site holds each of its credentials, but for the few drawn as missing or expired. */
export function generateDemoCredentials(
  ctx: Ctx,
  siteid: number,
  userids: number[],
  size: DatasetSize,
  hostile: boolean,
): void {
  const { store, rng, today } = ctx;
  const creds = insertDemoCredentials(ctx, siteid, size, hostile);
  const insert = 'INSERT INTO credential_assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?)';
  let hostileNotes = hostile ? 3 : 0;
  for (const userid of userids) {
    const lacking = rng.chance(DEMO_SHARES.peopleMissingCredential) ? rng.pick(creds).id : null;
    const held = creds.filter((c) => c.id !== lacking);
    const expired = rng.chance(DEMO_SHARES.peopleWithExpired) ? rng.pick(held).id : null;
    const datesRequired = held.filter((c) => c.expiration && c.id !== expired);
    const undated =
      rng.chance(DEMO_SHARES.peopleMissingDate) && datesRequired.length > 0
        ? rng.pick(datesRequired).id
        : null;
    for (const cred of held) {
      const start = addDaysIso(today, -rng.int(30, 1500));
      const days = cred.id === expired ? -rng.int(1, 120) : currentExpiration(rng);
      const neverExpires = !cred.expiration && rng.chance(0.3);
      const expiration = cred.id === undated || neverExpires ? '' : addDaysIso(today, days);
      const number = cred.num || rng.chance(0.4) ? credentialNumber(rng) : '';
      const notes =
        hostileNotes-- > 0
          ? `${HOSTILE.svgOnload} ${HOSTILE.quote}`
          : rng.chance(0.15)
            ? rng.pick(['Renewal scheduled', 'Copy on file', 'Verified by HR'])
            : '';
      store.run(
        insert,
        cred.id,
        userid,
        cred.start || rng.chance(0.9) ? start : '',
        expiration,
        number,
        'active',
        rng.chance(0.03) ? 1 : 0,
        notes,
      );
    }
  }
}

/** Start and due date of one training assignment, from its status. */
function trainingDates(rng: Rng, today: string, completed: boolean): { start: string; due: string } {
  if (completed) {
    const start = addDaysIso(today, -rng.int(14, 400));
    return { start, due: addDaysIso(start, rng.int(14, 120)) };
  }
  const r = rng.next();
  const dueIn =
    r < DEMO_SHARES.openTrainingOverdue
      ? -rng.int(1, 45)
      : r < DEMO_SHARES.openTrainingOverdue + DEMO_SHARES.openTrainingDueSoon
        ? rng.int(0, 30)
        : rng.int(31, 180);
  const due = addDaysIso(today, dueIn);
  const start = addDaysIso(due, -rng.int(14, 120));
  return { start: start > today ? today : start, due };
}

/** Each person's courses: over half done, most of the rest due later, a few overdue. */
export function generateDemoTraining(
  ctx: Ctx,
  siteid: number,
  userids: number[],
  size: DatasetSize,
  hostile: boolean,
): void {
  const { store, rng, ids, today } = ctx;
  const courseids = insertCourses(ctx, siteid, size.courses, hostile, (i) =>
    i % 10 === 9 ? 'inactive' : 'active',
  );
  const insert = 'INSERT INTO training_assignments VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
  const perUser = size.trainingAssignments / userids.length;
  const minute = (): number => 8 * 60 + 15 * rng.int(0, 36);
  for (const userid of userids) {
    const k = Math.min(courseids.length, Math.floor(perUser) + (rng.chance(perUser % 1) ? 1 : 0));
    for (const courseid of rng.sample(courseids, k).sort((a, b) => a - b)) {
      const r = rng.next();
      const completed = r < DEMO_SHARES.trainingCompleted;
      const status = completed ? 'completed' : r < 0.97 ? 'active' : 'inactive';
      const { start, due } = trainingDates(rng, today, completed);
      const created = addDaysIso(start, -rng.int(0, 14));
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
