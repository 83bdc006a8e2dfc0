/** Courses and training assignments (transcripts). */
import { ResponseCode } from '../../shared/api/codes.ts';
import { addDaysIso } from '../../shared/dates.ts';
import { WrapperKey, type WireCourse, type WireTrainingAssignment } from '../../shared/api/wire.ts';
import { bodyObject, optionalDate, optionalText } from '../body.ts';
import {
  apiError,
  callerSites,
  id,
  listPage,
  requireSite,
  requireUser,
  requireWrite,
  single,
  written,
  type ApiContext,
  type ApiResult,
  type Route,
} from '../context.ts';
import { renderCourse, renderTrainingAssignment, type CourseRow, type TrainingRow } from '../render.ts';
import { dateRange, type SearchSpec } from '../search.ts';
import { denied, invalid, noResults, notUnique } from '../status.ts';

export const COURSE_STATUSES = ['active', 'completed', 'inactive'] as const;
/** Course status as a number (the spec lists coursestatus as numeric): 0 inactive, 1 active, 2 completed. */
const COURSE_STATUS_CODES: Record<string, string> = { '0': 'inactive', '1': 'active', '2': 'completed' };

const COURSE_COLUMNS = 'c.courseid, c.siteid, c.coursename, c.coursetype, c.status';
const TRAINING_SELECT = `t.transcriptid, t.userid, t.courseid,
  u.employeeid, u.firstname, u.lastname, c.coursename, c.coursetype,
  t.course_status, t.assignment_method,
  t.start_date, t.start_minute, t.due_date, t.due_minute, t.created_date, t.created_minute`;
// CROSS JOIN keeps the assignments table outermost: pages are read in transcriptid order
const TRAINING_FROM = 'training_assignments t CROSS JOIN users u CROSS JOIN courses c';
const TRAINING_JOIN = ['u.userid = t.userid', 'c.courseid = t.courseid'];
const TRAINING_JOINED = TRAINING_JOIN.join(' AND ');

export const TRAINING_SEARCH: SearchSpec = {
  userid: { type: 'int', sql: 't.userid' },
  employeeid: { type: 'int', sql: 'u.employeeid' },
  transcriptid: { type: 'int', sql: 't.transcriptid' },
  courseid: { type: 'int', sql: 't.courseid' },
  coursestatus: { type: 'text', sql: 't.course_status', alias: (raw) => COURSE_STATUS_CODES[raw] },
  firstname: { type: 'text', sql: 'u.firstname' },
  lastname: { type: 'text', sql: 'u.lastname' },
  coursename: { type: 'text', sql: 'c.coursename' },
  coursetype: { type: 'text', sql: 'CAST(c.coursetype AS TEXT)' },
  assignmentmethod: { type: 'text', sql: 't.assignment_method' },
  ...dateRange('startdate', 't.start_date'),
  ...dateRange('duedate', 't.due_date'),
  ...dateRange('assignmentcreateddate', 't.created_date'),
};

function course(ctx: ApiContext, mode: 'read' | 'write'): CourseRow {
  const c = ctx.store.get<CourseRow>(
    `SELECT ${COURSE_COLUMNS} FROM courses c WHERE c.courseid = ?`,
    id(ctx, 'courseid'),
  );
  if (!c)
    throw mode === 'read'
      ? noResults('No course has that id.')
      : denied('No course with that id is owned by the caller.');
  requireSite(ctx, c.siteid, mode);
  if (ctx.params.siteid !== undefined && c.siteid !== id(ctx, 'siteid')) {
    requireSite(ctx, id(ctx, 'siteid'), mode);
    throw noResults('That course is not offered on that site.');
  }
  return c;
}

function listCourses(ctx: ApiContext): ApiResult {
  let where = `c.siteid IN (${callerSites(ctx)})`;
  const params = [];
  if (ctx.params.siteid !== undefined) {
    requireSite(ctx, id(ctx, 'siteid'), 'read');
    where = 'c.siteid = ?';
    params.push(id(ctx, 'siteid'));
  }
  return listPage<CourseRow, WireCourse>(
    ctx,
    WrapperKey.courses,
    { select: COURSE_COLUMNS, from: 'courses c', where: [where], params, key: 'c.courseid' },
    null,
    (rows) => rows.map((c) => renderCourse(ctx.base, c)),
  );
}

function listTraining(ctx: ApiContext, scope: 'site' | 'course' | 'user'): ApiResult {
  let where: string;
  let param: number;
  if (scope === 'user') {
    where = 't.userid = ?';
    param = requireUser(ctx, id(ctx, 'userid'), 'read').userid;
  } else if (scope === 'course') {
    where = 't.courseid = ?';
    param = course(ctx, 'read').courseid;
  } else {
    param = id(ctx, 'siteid');
    requireSite(ctx, param, 'read');
    where = 't.siteid = ?';
  }
  return listPage<TrainingRow, WireTrainingAssignment>(
    ctx,
    WrapperKey.trainingAssignments,
    {
      select: TRAINING_SELECT,
      from: TRAINING_FROM,
      where: [where, ...TRAINING_JOIN],
      params: [param],
      key: 't.transcriptid',
    },
    TRAINING_SEARCH,
    (rows) => rows.map(renderTrainingAssignment),
  );
}

function transcript(ctx: ApiContext, mode: 'read' | 'write'): TrainingRow & { siteid: number } {
  const t = ctx.store.get<TrainingRow & { siteid: number }>(
    `SELECT ${TRAINING_SELECT}, t.siteid FROM ${TRAINING_FROM} WHERE t.transcriptid = ? AND ${TRAINING_JOINED}`,
    id(ctx, 'transcriptid'),
  );
  if (!t)
    throw mode === 'read'
      ? noResults('No training assignment has that id.')
      : denied('No training assignment with that id is owned by the caller.');
  requireSite(ctx, t.siteid, mode);
  return t;
}

/** A minute of the day for an API-made date: 09:00, as a coordinator would schedule it. */
const NINE_AM = 9 * 60;

function createTraining(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const user = requireUser(ctx, id(ctx, 'userid'), 'write');
  const c = course(ctx, 'write');
  if (c.siteid !== user.siteid) throw invalid("That course is not offered on the user's site.");
  const b = bodyObject(ctx.body);
  const start = optionalDate(b, 'startdate') || ctx.today;
  const due = optionalDate(b, 'duedate') || addDaysIso(start, 30);
  if (due < start) throw invalid('duedate must not be before startdate.');
  const method = optionalText(b, 'assignmentmethod', 100) || 'Assigned by API';
  if (
    ctx.store.get(
      'SELECT 1 FROM training_assignments WHERE userid = ? AND courseid = ?',
      user.userid,
      c.courseid,
    )
  ) {
    throw notUnique('That course is already assigned to that user.');
  }
  const { lastId } = ctx.store.run(
    `INSERT INTO training_assignments (userid, courseid, siteid, course_status, assignment_method,
       start_date, start_minute, due_date, due_minute, created_date, created_minute)
     VALUES (?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?)`,
    user.userid,
    c.courseid,
    c.siteid,
    method,
    start,
    NINE_AM,
    due,
    NINE_AM,
    ctx.today,
    NINE_AM,
  );
  return written(ctx, ResponseCode.Created, 'Training assigned.', { transcriptid: lastId });
}

function updateTraining(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const t = transcript(ctx, 'write');
  const b = bodyObject(ctx.body);
  const start = optionalDate(b, 'startdate');
  const due = optionalDate(b, 'duedate');
  const rawStatus = optionalText(b, 'coursestatus', 50);
  let status: string | undefined;
  if (rawStatus !== undefined) {
    status = COURSE_STATUS_CODES[rawStatus] ?? COURSE_STATUSES.find((s) => s === rawStatus.toLowerCase());
    if (!status) throw invalid(`coursestatus must be one of ${COURSE_STATUSES.join(', ')}.`);
  }
  if (start === '' || due === '') throw invalid('Training dates cannot be cleared.');
  const changes = (
    [
      ['start_date', start],
      ['due_date', due],
      ['course_status', status],
    ] as const
  ).filter(([, v]) => v !== undefined) as [string, string][];
  if (!changes.length)
    throw apiError(
      ResponseCode.NoValidParameters,
      'No valid parameters: send one of startdate, duedate, coursestatus.',
    );
  if ((due ?? t.due_date) < (start ?? t.start_date)) throw invalid('duedate must not be before startdate.');
  ctx.store.run(
    `UPDATE training_assignments SET ${changes.map(([k]) => `${k} = ?`).join(', ')} WHERE transcriptid = ?`,
    ...changes.map(([, v]) => v),
    t.transcriptid,
  );
  return written(ctx, ResponseCode.Updated, 'Training assignment updated.', { transcriptid: t.transcriptid });
}

function deleteTraining(ctx: ApiContext): ApiResult {
  requireWrite(ctx);
  const t = transcript(ctx, 'write');
  ctx.store.run('DELETE FROM training_assignments WHERE transcriptid = ?', t.transcriptid);
  return written(ctx, ResponseCode.Deleted, 'Training assignment removed.');
}

export const trainingRoutes: Route[] = [
  { method: 'GET', path: '/courses', handler: listCourses },
  { method: 'GET', path: '/sites/:siteid/courses', handler: listCourses },
  {
    method: 'GET',
    path: '/courses/:courseid',
    handler: (ctx) => single(WrapperKey.courses, renderCourse(ctx.base, course(ctx, 'read'))),
  },
  {
    method: 'GET',
    path: '/sites/:siteid/course/:courseid',
    handler: (ctx) => single(WrapperKey.courses, renderCourse(ctx.base, course(ctx, 'read'))),
  },
  { method: 'GET', path: '/sites/:siteid/trainingassignments', handler: (ctx) => listTraining(ctx, 'site') },
  {
    method: 'GET',
    path: '/sites/:siteid/course/:courseid/trainingassignments',
    handler: (ctx) => listTraining(ctx, 'course'),
  },
  { method: 'GET', path: '/users/:userid/trainingassignments', handler: (ctx) => listTraining(ctx, 'user') },
  {
    method: 'GET',
    path: '/trainingassignments/:transcriptid',
    handler: (ctx) =>
      single(WrapperKey.trainingAssignments, renderTrainingAssignment(transcript(ctx, 'read'))),
  },
  { method: 'PUT', path: '/trainingassignments/:transcriptid', handler: updateTraining },
  { method: 'DELETE', path: '/trainingassignments/:transcriptid', handler: deleteTraining },
  { method: 'POST', path: '/trainingassignments/user/:userid/course/:courseid', handler: createTraining },
];
