/** What the generator's parts share: the context of one load and the name draws every dataset makes alike. */
import type { Rng } from './rng.ts';
import type { Store } from './store.ts';
import {
  COURSE_SUFFIXES,
  COURSE_TOPICS,
  CREDENTIAL_CATEGORIES,
  CREDENTIAL_LEVELS,
  CREDENTIAL_WORDS,
  HOSTILE,
} from './names.ts';

/** Ids are global across sites; each kind counts up from its own base. */
interface IdCounters {
  user: number;
  email: number;
  profileCategory: number;
  group: number;
  credentialCategory: number;
  credential: number;
  course: number;
  transcript: number;
}

export interface Ctx {
  store: Store;
  rng: Rng;
  today: string;
  hostile: boolean;
  /** the `demo` dataset: dates drawn as a coordinator's own site looks (see generate-demo.ts) */
  demo: boolean;
  ids: IdCounters;
  usernames: Map<string, number>;
}

/** A card's number such as "KX-482913": two capital letters, then six digits (three draws, in that order). */
export function credentialNumber(rng: Rng): string {
  const letter = () => String.fromCharCode(65 + rng.int(0, 25));
  const first = letter();
  const second = letter();
  return `${first}${second}-${rng.int(100_000, 999_999)}`;
}

/** A credential name not yet used at this site (the same draws for every dataset). */
export function credentialName(rng: Rng, names: Set<string>, i: number): string {
  let name = '';
  for (let tries = 0; tries < 20 && (!name || names.has(name)); tries++)
    name = `${rng.pick(CREDENTIAL_WORDS)} ${rng.pick(CREDENTIAL_LEVELS)}`.trim();
  if (names.has(name)) name = `${name} ${i + 1}`;
  names.add(name);
  return name;
}

/** A course name not yet used at this site. */
export function courseName(rng: Rng, names: Set<string>, i: number): string {
  let name = '';
  for (let tries = 0; tries < 20 && (!name || names.has(name)); tries++)
    name = `${rng.pick(COURSE_TOPICS)} ${rng.pick(COURSE_SUFFIXES)}`.trim();
  if (names.has(name)) name = `${name} (${i + 1})`;
  names.add(name);
  return name;
}

/** Credential categories of a site; their ids in order. */
export function insertCredentialCategories(ctx: Ctx, siteid: number, count: number): number[] {
  const categoryids: number[] = [];
  for (const name of CREDENTIAL_CATEGORIES.slice(0, count)) {
    categoryids.push(++ctx.ids.credentialCategory);
    ctx.store.run(
      'INSERT INTO credential_categories VALUES (?, ?, ?)',
      ctx.ids.credentialCategory,
      siteid,
      name,
    );
  }
  return categoryids;
}

/**
 * A site's courses, named and typed from the generator's draws in a fixed order (the
 * datasets stay the same byte for byte); `statusOf` draws or decides each one's status.
 */
export function insertCourses(
  ctx: Ctx,
  siteid: number,
  count: number,
  hostile: boolean,
  statusOf: (i: number) => string,
): number[] {
  const { store, rng, ids } = ctx;
  const courseids: number[] = [];
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    const name = courseName(rng, names, i);
    const coursename = hostile && i === 0 ? `${name} ${HOSTILE.script}` : name;
    store.run(
      'INSERT INTO courses VALUES (?, ?, ?, ?, ?)',
      ++ids.course,
      siteid,
      coursename,
      rng.int(1, 4),
      statusOf(i),
    );
    courseids.push(ids.course);
  }
  return courseids;
}
