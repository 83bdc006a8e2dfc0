/** Training by course and by user: overdue, due within N days, everything. */
import { useCallback, useDeferredValue, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CourseRecord, TrainingAssignmentRecord, UserRecord } from '../../../shared/records.ts';
import { todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import type { CachedTrainingAssignment } from '../../db/derived.ts';
import type { RouteProps } from '../../app/routes.tsx';
import { useActiveDb } from '../../app/session.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { formatCount, formatDate } from '../../app/format.ts';
import { TRAINING_STATE_LABEL, trainingState } from '../../app/compliance.ts';
import { pendingCell, tableOf, type ExportColumn } from '../../app/export-list.ts';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { applyOverlays, countWithPending, usersWithPending, type PendingMark } from '../../app/overlays.ts';
import { pageRead, shouldReadMore, type PageRead } from '../../app/read-more.ts';
import { WithPendingMark } from '../../components/PendingMarker.tsx';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { StatusText, TrainingBadge } from '../../components/Badges.tsx';
import { DaysInput } from '../../components/DaysInput.tsx';
import { useSoonDaysBox } from '../../app/soon-window.ts';
import { useLiveQueryAbout } from '../../app/live-query.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE, plural } from '../../app/words.ts';
import { traineesCount } from './count-words.ts';
import { SelectionBar, useRowSelection } from '../../components/SelectionBar.tsx';
import { searchUsersWithPending } from '../users/queries.ts';
import {
  PAGE_SIZE,
  isDueWithin,
  isOverdue,
  isOverdueOf,
  countOverdueWithPending,
  overdueTraining,
  countTrainingDueWithin,
  courseTrainingCounts,
  listCourses,
  overdueTrainingForCourse,
  trainingDueWithin,
  trainingForCourse,
  trainingForUser,
} from './queries.ts';

type Show = 'all' | 'overdue' | 'due';
type Row = CachedTrainingAssignment & PendingMark & { user?: UserRecord | undefined };

async function loadCourseTraining(
  db: FieldbookDb,
  courseid: number | null,
  show: Show,
  days: number,
  today: string,
  limit: number,
  siteid: number | null = null,
): Promise<{ rows: Row[]; total: number; read: PageRead }> {
  let rows: CachedTrainingAssignment[];
  let total: number | null = null;
  // the rows asked of the cache: the page's limit, or all of them
  let read = limit;
  // the overdue totals are counted by the query the dashboard's figures use, so the two agree
  let matches: (t: TrainingAssignmentRecord) => boolean;
  if (courseid === null && show === 'overdue') {
    rows = await overdueTraining(db, today, limit, siteid);
    total = await countOverdueWithPending(db, today, undefined, siteid);
    matches = (t) => isOverdueOf(t, today, undefined, siteid);
  } else if (courseid === null) {
    matches = (t) => isDueWithin(t, days, { today });
    rows = await trainingDueWithin(db, days, { today, limit });
    total = await countWithPending(
      'trainingAssignments',
      db,
      await countTrainingDueWithin(db, days, { today }),
      matches,
    );
  } else if (show === 'overdue') {
    rows = await overdueTrainingForCourse(db, courseid, today, limit);
    total = await countOverdueWithPending(db, today, courseid);
    matches = (t) => t.courseid === courseid && isOverdue(t, today);
  } else if (show === 'due') {
    read = Infinity;
    rows = await trainingDueWithin(db, days, { today, courseid, limit: Infinity });
    matches = (t) => isDueWithin(t, days, { today, courseid });
  } else {
    read = Infinity;
    rows = await trainingForCourse(db, courseid);
    matches = (t) => t.courseid === courseid;
  }
  const pending = await applyOverlays('trainingAssignments', db, rows, matches);
  const [users, effectiveTotal] = await Promise.all([
    usersWithPending(
      db,
      pending.map((t) => t.userid),
    ),
    total ?? pending.filter((t) => t.pendingChange !== 'delete').length,
  ]);
  return {
    rows: pending.map((t) => ({ ...t, user: users.get(t.userid) })),
    total: effectiveTotal,
    read: pageRead(read, rows.length),
  };
}

/** "Fire safety of Ann Lee": what a row's Undo undoes. */
const trainingWhat = (t: Row) =>
  t.user ? `${t.course_name} of ${t.user.firstname} ${t.user.lastname}` : t.course_name;

function trainingColumns(today: string, days: number, withUser: boolean): Column<Row>[] {
  return [
    withUser
      ? {
          id: 'user',
          header: 'User',
          width: 'minmax(10rem, 2fr)',
          render: (t) => (
            <WithPendingMark row={t} what={trainingWhat(t)}>
              <a href={hrefFor('users', t.userid)} tabIndex={-1}>
                {t.user ? `${t.user.lastname}, ${t.user.firstname}` : NOT_HERE.person}
              </a>
            </WithPendingMark>
          ),
        }
      : {
          id: 'course',
          header: 'Course',
          width: 'minmax(10rem, 2fr)',
          render: (t) => (
            <WithPendingMark row={t} what={trainingWhat(t)}>
              {t.course_name}
            </WithPendingMark>
          ),
        },
    {
      id: 'state',
      header: 'State',
      width: '9rem',
      render: (t) => <TrainingBadge state={trainingState(t, today, days)} />,
    },
    { id: 'due', header: 'Due', width: '8rem', render: (t) => formatDate(t.dueIso) },
    ...(withUser
      ? [{ id: 'course', header: 'Course', width: 'minmax(8rem, 1.5fr)', render: (t: Row) => t.course_name }]
      : []),
    {
      id: 'status',
      header: 'Course status',
      width: '9.5rem',
      render: (t) => <StatusText value={t.course_status} />,
    },
    { id: 'method', header: 'Assigned by', width: 'minmax(8rem, 1fr)', render: (t) => t.assignment_method },
  ];
}

function trainingExportColumns(today: string, days: number): ExportColumn<Row>[] {
  return [
    { header: 'Last name', cell: (t) => t.user?.lastname },
    { header: 'First name', cell: (t) => t.user?.firstname },
    { header: 'Username', cell: (t) => t.user?.username },
    { header: 'Employee ID', cell: (t) => t.user?.employeeid },
    { header: 'Course', cell: (t) => t.course_name },
    { header: 'Due', cell: (t) => t.dueIso },
    { header: 'State', cell: (t) => TRAINING_STATE_LABEL[trainingState(t, today, days)] },
    { header: 'Course status', cell: (t) => t.course_status },
    { header: 'Assigned by', cell: (t) => t.assignment_method },
    { header: 'Pending change', cell: (t) => pendingCell(t) },
  ];
}

const NO_ROWS: Row[] = [];
const personOfRow = (t: Row) => t.userid;

/** The columns of the course list, with each course's assigned and overdue counts. */
function courseColumnsOf(
  counts: Awaited<ReturnType<typeof courseTrainingCounts>> | undefined,
): Column<CourseRecord>[] {
  return [
    {
      id: 'name',
      header: 'Course',
      width: 'minmax(10rem, 3fr)',
      render: (c) => (
        <a href={hrefFor('training', 'course', c.courseid)} tabIndex={-1}>
          {c.coursename}
        </a>
      ),
    },
    { id: 'status', header: 'Status', width: '7rem', render: (c) => <StatusText value={c.status} /> },
    {
      id: 'assigned',
      header: 'Assigned',
      width: '7rem',
      render: (c) => formatCount(counts?.get(c.courseid)?.assigned ?? 0),
    },
    {
      id: 'overdue',
      header: 'Overdue',
      width: '6rem',
      render: (c) => formatCount(counts?.get(c.courseid)?.overdue ?? 0),
    },
  ];
}

/**
 * "overdue training of Forklift safety", "training due within 30 days of all courses of Riverside": an export's name.
 */
function listNameOf(show: Show, days: number, course: CourseRecord | null, allCourses: string): string {
  const what =
    show === 'overdue'
      ? 'overdue training'
      : show === 'due'
        ? `training due within ${plural(days, 'day')}`
        : 'training';
  return `${what} ${course ? `of ${course.coursename}` : allCourses.toLowerCase()}`;
}

/**
 * Training by course; `siteid`: the dashboard opened the overdue training of one site's people
 * (`#/training/overdue/site/3`).
 */
function ByCourse({
  db,
  courseid,
  siteid,
}: {
  db: FieldbookDb;
  courseid: number | null;
  siteid: number | null;
}) {
  const today = todayIso();
  const pendingVersion = usePendingVersion();
  const courses = useLiveQuery(
    async () => (await listCourses(db)).filter((c) => siteid === null || c.siteid === siteid),
    [db, siteid],
  );
  const site = useLiveQuery(
    async () => (siteid === null ? null : ((await db.sites.get(siteid))?.sitename ?? NOT_HERE.site)),
    [db, siteid],
  );
  const counts = useLiveQuery(() => courseTrainingCounts(db, today), [db, today, pendingVersion]);
  const course = courses?.find((c) => c.courseid === courseid) ?? null;
  return (
    <>
      <VirtualGrid
        label="Course list"
        rows={courses ?? []}
        rowKey={(c) => c.courseid}
        columns={courseColumnsOf(counts)}
        size="compact"
        onActivate={(c) => navigate('training', 'course', c.courseid)}
        loading={courses === undefined}
        emptyText="No course in the cache."
      />
      <CourseTraining db={db} courseid={courseid} siteid={siteid} course={course} site={site ?? null} />
    </>
  );
}

/** The assignments of one course, or of every course, as a paged list and its selection. */
function useCourseTraining(db: FieldbookDb, courseid: number | null, siteid: number | null) {
  const [show, setShow] = useState<Show>('overdue');
  const [days, setDays] = useSoonDaysBox();
  const today = todayIso();
  const pendingVersion = usePendingVersion();
  const [limit, setLimit] = useState(PAGE_SIZE);
  // all courses: overdue or due within N days (every assignment of every course is too long a list)
  const effective: Show = courseid === null && show === 'all' ? 'overdue' : show;
  const page = useLiveQueryAbout(
    [db, courseid, effective, days, siteid],
    () => loadCourseTraining(db, courseid, effective, days, today, limit, siteid),
    [today, limit, pendingVersion],
  );
  const rows = page?.rows;
  const total = page?.total ?? 0;
  const shown = rows?.length ?? 0;
  const readMore = () => {
    if (shouldReadMore(page?.read, limit, shown, total)) setLimit(limit + PAGE_SIZE);
  };
  // every page of the list, for "select all" and for saying who is selected but no longer listed
  const loadMatching = useCallback(
    async () =>
      (await loadCourseTraining(db, courseid, effective, days, today, Infinity, siteid)).rows
        .filter((t) => t.pendingChange !== 'delete')
        .map((t) => t.userid),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- pendingVersion: pending edits change who is listed
    [db, courseid, effective, days, today, pendingVersion, siteid],
  );
  const selection = useRowSelection(rows ?? NO_ROWS, personOfRow, loadMatching);
  const chooseShow = (next: Show) => {
    setShow(next);
    setLimit(PAGE_SIZE);
  };
  const exportRows = async () =>
    tableOf(
      trainingExportColumns(today, days),
      (await loadCourseTraining(db, courseid, effective, days, today, Infinity, siteid)).rows,
    );
  return {
    today,
    days,
    setDays,
    effective,
    chooseShow,
    rows,
    total,
    shown,
    readMore,
    loadMatching,
    selection,
    exportRows,
  };
}

function CourseTraining({
  db,
  courseid,
  siteid,
  course,
  site,
}: {
  db: FieldbookDb;
  courseid: number | null;
  siteid: number | null;
  course: CourseRecord | null;
  site: string | null;
}) {
  const list = useCourseTraining(db, courseid, siteid);
  const { today, days, effective, rows, total, selection } = list;
  const allCourses = site ? `All courses of ${site}` : 'All courses';
  const listName = listNameOf(effective, days, course, allCourses);
  return (
    <section className="panel" aria-labelledby="course-training-heading">
      <h2 id="course-training-heading">{course ? course.coursename : allCourses}</h2>
      <div className="toolbar">
        <label>
          Show
          <select value={effective} onChange={(e) => list.chooseShow(e.target.value as Show)}>
            <option value="overdue">Overdue</option>
            <option value="due">Due within {plural(days, 'day')}</option>
            {courseid !== null && <option value="all">All assignments</option>}
          </select>
        </label>
        {effective === 'due' && <DaysInput label="Due within (days)" value={days} onChange={list.setDays} />}
        {courseid !== null && (
          <button type="button" onClick={() => navigate('training')}>
            Show all courses
          </button>
        )}
        <ExportButtons what={listName} load={list.exportRows} disabled={!rows || total === 0} />
        <p role="status" className="count">
          {rows ? traineesCount(list.shown, total, courseid !== null) : 'Loading…'}
        </p>
      </div>
      <SelectionBar
        store={selection.store}
        matchCount={rows ? total : undefined}
        loadMatching={list.loadMatching}
        preset={courseid === null ? { type: 'training' } : { type: 'training', choice: courseid }}
      />
      <VirtualGrid
        label={`Assignments: ${course?.coursename ?? 'all courses'}`}
        rows={rows ?? NO_ROWS}
        rowKey={(t) => t.transcriptid}
        {...selection.grid}
        rowLabel={(t) => (t.user ? `${t.user.lastname}, ${t.user.firstname}` : NOT_HERE.person)}
        columns={trainingColumns(today, days, true)}
        size="short"
        onActivate={(t) => navigate('users', t.userid)}
        loading={rows === undefined}
        onEndReached={list.readMore}
        emptyText="No assignment to show."
      />
    </section>
  );
}

function ByUser({ db, userid }: { db: FieldbookDb; userid: number | null }) {
  const [text, setText] = useState('');
  const [days, setDays] = useSoonDaysBox();
  const deferred = useDeferredValue(text);
  const pendingVersion = usePendingVersion();
  const today = todayIso();
  // people created offline (pending user.create) are found too, by the same folded words
  const matches = useLiveQuery(
    async () => (deferred.trim() ? (await searchUsersWithPending(db, deferred)).slice(0, 200) : []),
    [db, deferred, pendingVersion],
  );
  const user = useLiveQueryAbout(
    [db, userid],
    async () => (userid === null ? undefined : (await usersWithPending(db, [userid])).get(userid)),
    [pendingVersion],
  );
  const rows = useLiveQueryAbout(
    [db, userid],
    async () =>
      userid === null
        ? []
        : applyOverlays(
            'trainingAssignments',
            db,
            await trainingForUser(db, userid),
            (t) => t.userid === userid,
          ),
    [pendingVersion],
  );
  return (
    <>
      <div className="toolbar" role="search">
        <label>
          Find a user
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Name, username or employee ID"
          />
        </label>
      </div>
      {matches && matches.length > 0 && (
        <ul className="pick-list" aria-label="Matching users">
          {matches.map((u) => (
            <li key={u.userid}>
              <a href={hrefFor('training', 'user', u.userid)}>
                {u.lastname}, {u.firstname} ({u.username})
              </a>
              {u.pendingChange === 'create' && (
                <>
                  {' '}
                  <span className="badge pending">Pending addition</span>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <section className="panel" aria-labelledby="user-training-heading">
        <h2 id="user-training-heading">
          {user ? `Training of ${user.firstname} ${user.lastname}` : 'Pick a user'}
        </h2>
        <DaysInput label="Due soon within (days)" value={days} onChange={setDays} />
        <VirtualGrid
          label="Training of the user"
          rows={rows ?? []}
          rowKey={(t) => t.transcriptid}
          columns={trainingColumns(today, days, false)}
          size="short"
          emptyText={userid === null ? 'Search for a user above.' : 'No training assigned.'}
        />
      </section>
    </>
  );
}

export default function TrainingView({ params }: RouteProps) {
  const db = useActiveDb();
  if (!db) return null;
  const mode = params[0] === 'user' ? 'user' : 'course';
  // `#/training/overdue/site/3`: every course's overdue training of one site (a dashboard figure)
  const siteid =
    params[0] === 'overdue' && params[1] === 'site' && Number.isInteger(Number(params[2]))
      ? Number(params[2])
      : null;
  const id = params[1] === undefined || params[0] === 'overdue' ? null : Number(params[1]);
  return (
    <section className="view" aria-labelledby="training-heading">
      <h1 id="training-heading">Training</h1>
      <div className="segmented" role="group" aria-label="Group training">
        <button type="button" aria-pressed={mode === 'course'} onClick={() => navigate('training')}>
          By course
        </button>
        <button type="button" aria-pressed={mode === 'user'} onClick={() => navigate('training', 'user')}>
          By user
        </button>
      </div>
      {mode === 'course' ? (
        <ByCourse db={db} courseid={id} siteid={siteid} />
      ) : (
        <ByUser db={db} userid={id} />
      )}
    </section>
  );
}
