/**
 * Latency of the view queries over the full cache, with inputs a
 * coordinator would use: name prefixes typed one letter at a time (run i types
 * (i % 3) + 1 letters), two-word searches in either order with and without
 * accents, users spread over the whole list, each course in turn.
 * The queries run as the views run them, in their effective state: with the
 * outbox's overlays registered and a site visit's worth of edits pending
 * (queued before the runs, removed after).
 */
import type { FieldbookDb } from '../../src/renderer/db/index.ts';
import { lower } from '../../src/shared/records.ts';
import { fold } from '../../src/shared/search-text.ts';
import {
  compareUsers,
  DEFAULT_SORT,
  searchUsers,
  userMatcher,
} from '../../src/renderer/features/users/queries.ts';
import { loadUserDetail } from '../../src/renderer/features/user-detail/queries.ts';
import {
  credentialsExpiringWithin,
  inExpiringWindow,
} from '../../src/renderer/features/credentials/queries.ts';
import { isOverdue, overdueTrainingForCourse } from '../../src/renderer/features/training/queries.ts';
import { applyOverlays } from '../../src/renderer/app/overlays.ts';
import { registerOutboxOverlays } from '../../src/renderer/outbox/overlays.ts';
import { enqueueOps, type OpDraft } from '../../src/shared/replay-queue/queue.ts';
import { todayIso } from '../../src/shared/dates.ts';
import { QUERY_NAMES, type QueryName, type QueryTimings } from '../page-api.ts';

type Query = (run: number) => Promise<unknown>;

/** `count` items spread evenly over `items`. */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length === 0) return [];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]!);
}

async function queriesOver(db: FieldbookDb, runs: number): Promise<Record<QueryName, Query>> {
  const userids = spread(await db.users.toCollection().primaryKeys(), runs);
  const users = (await db.users.bulkGet(userids)).filter((u) => u !== undefined);
  // 1, 2 then 3 letters of last names: what a search box sees while typing
  const prefixes = users.map((u, i) => lower(u.lastname).slice(0, (i % 3) + 1)).filter((p) => p.length > 0);
  // two words as a coordinator types them: "Bailey, Ma", "ma bailey", upper case or without the accents
  const wordQueries = users.map((u, i) => {
    const [first, last] = [u.firstname.slice(0, 2), u.lastname];
    const text =
      i % 3 === 0 ? `${last}, ${first}` : i % 3 === 1 ? `${first} ${last}` : `${last.toUpperCase()} ${first}`;
    return i % 2 === 0 ? fold(text) : text;
  });
  const courseids = await db.courses.toCollection().primaryKeys();
  if (userids.length === 0 || prefixes.length === 0 || courseids.length === 0)
    throw new Error('The cache has no users or no courses to query.');
  const today = todayIso();
  const searchAsTheViewDoes = async (text: string) => {
    const [found, matches] = await Promise.all([searchUsers(db, text), userMatcher(db, text)]);
    return applyOverlays('users', db, found, matches, compareUsers(DEFAULT_SORT));
  };
  return {
    'user search by name prefix': (run) => searchAsTheViewDoes(prefixes[run % prefixes.length]!),
    'user search by folded words in any order': (run) =>
      searchAsTheViewDoes(wordQueries[run % wordQueries.length]!),
    'user detail with all assignments': (run) => loadUserDetail(db, userids[run % userids.length]!),
    'credentials expiring in 30 days': async () =>
      applyOverlays('credentialAssignments', db, await credentialsExpiringWithin(db, 30), (a) =>
        inExpiringWindow(a, 30, { today }),
      ),
    'overdue training for a course': async (run) => {
      const courseid = courseids[run % courseids.length]!;
      return applyOverlays(
        'trainingAssignments',
        db,
        await overdueTrainingForCourse(db, courseid),
        (t) => t.courseid === courseid && isOverdue(t, today),
      );
    },
  };
}

/** A site visit's worth of pending edits (54, as in issue 11): status changes, grants, credentials, training. */
async function queueSiteVisit(db: FieldbookDb): Promise<string[]> {
  const users = await db.users.limit(18).toArray();
  const group = await db.groups.limit(1).first();
  const credential = await db.credentials.limit(1).first();
  const course = await db.courses.limit(1).first();
  const drafts: OpDraft[] = [];
  for (const u of users) {
    drafts.push({
      op: { kind: 'user.update', userid: u.userid, changes: { status: 'Inactive' } },
      base: { status: u.status },
      summary: 'bench',
    });
    if (group)
      drafts.push({
        op: { kind: 'groupAccess.grant', siteid: u.siteid, groupid: group.groupid, userid: u.userid },
        summary: 'bench',
      });
    if (credential)
      drafts.push({
        op: {
          kind: 'credentialAssignment.create',
          credentialid: credential.credentialid,
          userid: u.userid,
          fields: { expirationdate: todayIso() },
        },
        summary: 'bench',
      });
  }
  if (course && users[0])
    drafts.push({
      op: {
        kind: 'trainingAssignment.create',
        userid: users[0].userid,
        courseid: course.courseid,
        fields: {},
      },
      summary: 'bench',
    });
  return (await enqueueOps(db, drafts)).map((op) => op.id);
}

export async function queryLatency(db: FieldbookDb, runs: number, warmup: number): Promise<QueryTimings> {
  registerOutboxOverlays();
  const pending = await queueSiteVisit(db);
  try {
    return await timeQueries(db, runs, warmup);
  } finally {
    await db.outbox.bulkDelete(pending);
  }
}

async function timeQueries(db: FieldbookDb, runs: number, warmup: number): Promise<QueryTimings> {
  const queries = await queriesOver(db, runs);
  const timings: QueryTimings = {
    runs: Object.fromEntries(QUERY_NAMES.map((name) => [name, [] as number[]])) as QueryTimings['runs'],
    first: Object.fromEntries(QUERY_NAMES.map((name) => [name, 0])) as QueryTimings['first'],
  };
  for (const name of QUERY_NAMES) {
    for (let run = 0; run < warmup; run++) {
      const started = performance.now();
      await queries[name](run);
      if (run === 0) timings.first[name] = performance.now() - started;
    }
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      await queries[name](run);
      timings.runs[name].push(performance.now() - started);
    }
  }
  return timings;
}
