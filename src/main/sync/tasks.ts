/**
 * The lists a sync reads, and how each becomes cache records. A task is one
 * paged list over one scope (the site's users, one credential's assignments...).
 * Pure: no I/O.
 *
 * Routes (spec "Endpoints"): users and credentials are read once for the whole
 * customer; everything else per site; then group members and supervisors per
 * group, feature holders per module and assignments per credential. Groups come
 * from the site's access-group list, which carries every group with its
 * category, so no per-category listing is needed. Never one request per user.
 */
import type { PageRecords } from '../../shared/ipc.ts';
import type { Parsed, SchemaName } from '../../shared/api/wire.ts';
import { WrapperKey } from '../../shared/api/wire.ts';
import {
  emailsOfUser,
  listedEmailIds,
  normalizeCourse,
  normalizeCredential,
  normalizeCredentialAssignment,
  normalizeCredentialCategory,
  normalizeGroup,
  normalizeModule,
  normalizeProfileCategory,
  normalizeSite,
  normalizeTrainingAssignment,
  normalizeUser,
  type CollectionName,
} from '../../shared/records.ts';
import { credentialAssignmentKey, groupUserKey, moduleAccessKey } from '../../shared/keys.ts';

export const TASK_KINDS = [
  'sites',
  'users',
  'credentials',
  'profileCategories',
  'groups',
  'modules',
  'credentialCategories',
  'courses',
  'trainingAssignments',
  'groupMembers',
  'groupAccess',
  'moduleAccess',
  'credentialAssignments',
  // kept sites only (a profile keeping some sites): the users of one site, its credential categories and their
  // credentials, and the holders of those credentials among the kept sites' people
  'siteUsers',
  'keptCredentialCategories',
  'siteCredentials',
  'keptCredentialAssignments',
  // the users of a site not kept, read only for main's identity index (identities.ts): parsed, never sent
  'otherSiteUsers',
] as const;
export type TaskKind = (typeof TASK_KINDS)[number];

export interface TaskScope {
  siteid?: number;
  groupid?: number;
  categoryid?: number;
  accessID?: number;
  credentialid?: number;
  /** on the root lists of a profile keeping some sites: those sites */
  keptSites?: readonly number[];
  /**
   * on the sites list of such a profile: sites not kept whose usernames and e-mails main's index read recently (not
   * read again)
   */
  identitiesFresh?: readonly number[];
}

export interface SyncTask {
  taskId: string;
  kind: TaskKind;
  /** the collection its checkpoint belongs to */
  collection: CollectionName;
  path: string;
  wrapperKey: string;
  schema: SchemaName;
  scope: TaskScope;
  /** expected number of rows, from counts the parent list carried; sizes the speculative paging */
  hint: number | null;
}

interface KindSpec {
  collection: CollectionName;
  wrapperKey: string;
  schema: SchemaName;
  path: (scope: TaskScope) => string;
  /** collections this task's pages fill (users also fill e-mails; none: its pages stay in main) */
  fills: CollectionName[];
  /** kinds of the tasks its records create */
  children: TaskKind[];
}

const SITE_CHILDREN: TaskKind[] = [
  'profileCategories',
  'groups',
  'modules',
  'credentialCategories',
  'courses',
  'trainingAssignments',
];
/**
 * A kept site's lists (a profile keeping some sites): its users, and its credentials through its credential
 * categories.
 */
const KEPT_SITE_CHILDREN: TaskKind[] = [
  'profileCategories',
  'groups',
  'modules',
  'keptCredentialCategories',
  'courses',
  'trainingAssignments',
  'siteUsers',
];

export const KIND_SPECS: Record<TaskKind, KindSpec> = {
  sites: {
    collection: 'sites',
    wrapperKey: WrapperKey.sites,
    schema: 'site',
    path: () => '/sites',
    fills: ['sites'],
    children: [...new Set([...SITE_CHILDREN, ...KEPT_SITE_CHILDREN, 'otherSiteUsers' as const])],
  },
  users: {
    collection: 'users',
    wrapperKey: WrapperKey.users,
    schema: 'user',
    path: () => '/users',
    fills: ['users', 'emails'],
    children: [],
  },
  credentials: {
    collection: 'credentials',
    wrapperKey: WrapperKey.credentials,
    schema: 'credential',
    path: () => '/credentials',
    fills: ['credentials'],
    children: ['credentialAssignments'],
  },
  profileCategories: {
    collection: 'profileCategories',
    wrapperKey: WrapperKey.profileCategories,
    schema: 'profileCategory',
    path: (s) => `/sites/${s.siteid}/categories/profile`,
    fills: ['profileCategories'],
    children: [],
  },
  groups: {
    collection: 'groups',
    wrapperKey: WrapperKey.groups,
    schema: 'group',
    path: (s) => `/sites/${s.siteid}/access/groups`,
    fills: ['groups'],
    children: ['groupMembers', 'groupAccess'],
  },
  modules: {
    collection: 'modules',
    wrapperKey: WrapperKey.modules,
    schema: 'module',
    path: (s) => `/sites/${s.siteid}/access/modules`,
    fills: ['modules'],
    children: ['moduleAccess'],
  },
  credentialCategories: {
    collection: 'credentialCategories',
    wrapperKey: WrapperKey.credentialCategories,
    schema: 'credentialCategory',
    path: (s) => `/sites/${s.siteid}/categories/credential`,
    fills: ['credentialCategories'],
    children: [],
  },
  courses: {
    collection: 'courses',
    wrapperKey: WrapperKey.courses,
    schema: 'course',
    path: (s) => `/sites/${s.siteid}/courses`,
    fills: ['courses'],
    children: [],
  },
  trainingAssignments: {
    collection: 'trainingAssignments',
    wrapperKey: WrapperKey.trainingAssignments,
    schema: 'trainingAssignment',
    path: (s) => `/sites/${s.siteid}/trainingassignments`,
    fills: ['trainingAssignments'],
    children: [],
  },
  groupMembers: {
    collection: 'groupMembers',
    wrapperKey: WrapperKey.groupMembers,
    schema: 'groupMember',
    path: (s) => `/sites/categories/profile/${s.categoryid}/groups/${s.groupid}/users`,
    fills: ['groupMembers'],
    children: [],
  },
  groupAccess: {
    collection: 'groupAccess',
    wrapperKey: WrapperKey.accessUsers,
    schema: 'accessUser',
    path: (s) => `/sites/${s.siteid}/access/groups/${s.groupid}/users`,
    fills: ['groupAccess'],
    children: [],
  },
  moduleAccess: {
    collection: 'moduleAccess',
    wrapperKey: WrapperKey.accessUsers,
    schema: 'accessUser',
    path: (s) => `/sites/${s.siteid}/access/modules/${s.accessID}/users`,
    fills: ['moduleAccess'],
    children: [],
  },
  credentialAssignments: {
    collection: 'credentialAssignments',
    wrapperKey: WrapperKey.credentialAssignments,
    schema: 'credentialAssignment',
    path: (s) => `/credentials/${s.credentialid}/assignments`,
    fills: ['credentialAssignments'],
    children: [],
  },
  keptCredentialCategories: {
    collection: 'credentialCategories',
    wrapperKey: WrapperKey.credentialCategories,
    schema: 'credentialCategory',
    path: (s) => `/sites/${s.siteid}/categories/credential`,
    fills: ['credentialCategories'],
    children: ['siteCredentials'],
  },
  siteCredentials: {
    collection: 'credentials',
    wrapperKey: WrapperKey.credentials,
    schema: 'credential',
    path: (s) => `/sites/${s.siteid}/categories/credential/${s.categoryid}/credentials`,
    fills: ['credentials'],
    children: ['keptCredentialAssignments'],
  },
  // the kept people: credential holders are picked among them (kept.ts), so a site's users are read from the first
  // row on every run, resumed or not (their unchanged pages as keys only: page-keys.ts), and holders count as not
  // synced when they could not be read
  siteUsers: {
    collection: 'users',
    wrapperKey: WrapperKey.users,
    schema: 'user',
    path: (s) => `/sites/${s.siteid}/users`,
    fills: ['users', 'emails'],
    children: ['keptCredentialAssignments'],
  },
  otherSiteUsers: {
    collection: 'users',
    wrapperKey: WrapperKey.users,
    schema: 'user',
    path: (s) => `/sites/${s.siteid}/users`,
    fills: [],
    children: [],
  },
  keptCredentialAssignments: {
    collection: 'credentialAssignments',
    wrapperKey: WrapperKey.credentialAssignments,
    schema: 'credentialAssignment',
    path: (s) => `/credentials/${s.credentialid}/assignments`,
    fills: ['credentialAssignments'],
    children: [],
  },
};

export function makeTask(kind: TaskKind, scope: TaskScope = {}, hint: number | null = null): SyncTask {
  const spec = KIND_SPECS[kind];
  const path = spec.path(scope);
  return {
    taskId: `${kind}:${path}`,
    kind,
    collection: spec.collection,
    path,
    wrapperKey: spec.wrapperKey,
    schema: spec.schema,
    scope,
    hint,
  };
}

/**
 * Lists read before anything is known: sites, and the customer-wide users and
 * credentials. A profile keeping some sites reads their users per site (the
 * sites list creates those tasks) and the credentials' holders among them.
 */
export function rootTasks(
  hints: Partial<Record<CollectionName, number>> = {},
  keptSites?: readonly number[],
  identitiesFresh: readonly number[] = [],
): SyncTask[] {
  if (keptSites) return [makeTask('sites', { keptSites, identitiesFresh }, hints.sites ?? null)];
  return (['sites', 'users', 'credentials'] as const).map((kind) => makeTask(kind, {}, hints[kind] ?? null));
}

/** The items of a sites page this pass keeps (all, unless the profile keeps some sites). */
function keptSitesOf(task: SyncTask, sites: Parsed<'site'>[]): Parsed<'site'>[] {
  const kept = task.scope.keptSites;
  return kept ? sites.filter((s) => kept.includes(s.siteid)) : sites;
}

/** The items of a sites page this pass does not keep (none, unless the profile keeps some sites). */
function notKeptSitesOf(task: SyncTask, sites: Parsed<'site'>[]): Parsed<'site'>[] {
  const kept = task.scope.keptSites;
  return kept ? sites.filter((s) => !kept.includes(s.siteid)) : [];
}

/** Every collection a task's pages fill, including those of the tasks it creates (directly or not). */
export function collectionsUnder(kind: TaskKind): CollectionName[] {
  const out = new Set<CollectionName>();
  const visit = (k: TaskKind) => {
    for (const c of KIND_SPECS[k].fills) out.add(c);
    for (const child of KIND_SPECS[k].children) visit(child);
  };
  visit(kind);
  return [...out];
}

type AnyParsed = Parsed<SchemaName>;

/** The tasks that one page of a parent list creates. */
export function childTasks(task: SyncTask, items: readonly AnyParsed[]): SyncTask[] {
  const out: SyncTask[] = [];
  switch (task.kind) {
    case 'sites':
      for (const site of keptSitesOf(task, items as Parsed<'site'>[])) {
        for (const kind of task.scope.keptSites ? KEPT_SITE_CHILDREN : SITE_CHILDREN)
          out.push(makeTask(kind, { siteid: site.siteid }));
      }
      // the other sites' usernames and e-mails, for the import's uniqueness checks (identities.ts), unless read
      // recently
      for (const site of notKeptSitesOf(task, items as Parsed<'site'>[])) {
        if (!task.scope.identitiesFresh?.includes(site.siteid))
          out.push(makeTask('otherSiteUsers', { siteid: site.siteid }));
      }
      break;
    case 'keptCredentialCategories':
      for (const c of items as Parsed<'credentialCategory'>[])
        out.push(
          makeTask(
            'siteCredentials',
            { siteid: task.scope.siteid, categoryid: c.categoryid },
            c.credentialcount,
          ),
        );
      break;
    case 'groups':
      for (const g of items as Parsed<'group'>[]) {
        const siteid = g.siteid ?? task.scope.siteid;
        out.push(
          makeTask(
            'groupMembers',
            { siteid, groupid: g.groupid, categoryid: g.categoryid ?? 0 },
            g.usercount,
          ),
        );
        out.push(makeTask('groupAccess', { siteid, groupid: g.groupid }, g.accessusercount ?? null));
      }
      break;
    case 'modules':
      for (const m of items as Parsed<'module'>[])
        out.push(makeTask('moduleAccess', { siteid: task.scope.siteid, accessID: m.accessID }));
      break;
    case 'credentials':
      for (const c of items as Parsed<'credential'>[]) {
        out.push(
          makeTask(
            'credentialAssignments',
            { credentialid: c.credentialid },
            c.activeusercount + c.inactiveusercount,
          ),
        );
      }
      break;
    case 'siteCredentials':
      for (const c of items as Parsed<'credential'>[]) {
        out.push(
          makeTask(
            'keptCredentialAssignments',
            { credentialid: c.credentialid },
            c.activeusercount + c.inactiveusercount,
          ),
        );
      }
      break;
    default:
      break;
  }
  return out;
}

/** Totals other lists announce: profile categories count their groups, groups their members... */
export function announcedTotals(
  task: SyncTask,
  items: readonly AnyParsed[],
): Partial<Record<CollectionName, number>> {
  const sum = <T>(list: T[], f: (x: T) => number) => list.reduce((n, x) => n + f(x), 0);
  switch (task.kind) {
    case 'profileCategories':
      return { groups: sum(items as Parsed<'profileCategory'>[], (c) => c.groupcount) };
    case 'credentialCategories':
    case 'keptCredentialCategories':
      return { credentials: sum(items as Parsed<'credentialCategory'>[], (c) => c.credentialcount) };
    case 'groups': {
      const groups = items as Parsed<'group'>[];
      return {
        groupMembers: sum(groups, (g) => g.usercount),
        groupAccess: sum(groups, (g) => g.accessusercount ?? 0),
      };
    }
    case 'credentials':
      return {
        credentialAssignments: sum(
          items as Parsed<'credential'>[],
          (c) => c.activeusercount + c.inactiveusercount,
        ),
      };
    default:
      return {};
  }
}

/** The primary key that de-duplicates a task's items across its pages. */
export function itemKey(task: SyncTask, item: AnyParsed): string | number {
  const record = item as Record<string, unknown>;
  switch (task.kind) {
    case 'sites':
      return record.siteid as number;
    case 'users':
    case 'siteUsers':
    case 'otherSiteUsers':
    case 'groupMembers':
    case 'groupAccess':
    case 'moduleAccess':
      return record.userid as number;
    case 'credentials':
    case 'siteCredentials':
      return record.credentialid as number;
    case 'profileCategories':
    case 'credentialCategories':
    case 'keptCredentialCategories':
      return record.categoryid as number;
    case 'groups':
      return record.groupid as number;
    case 'modules':
      return record.accessID as number;
    case 'courses':
      return record.courseid as number;
    case 'trainingAssignments':
      return record.transcriptid as number;
    case 'credentialAssignments':
    case 'keptCredentialAssignments': {
      const a = item as Parsed<'credentialAssignment'>;
      return credentialAssignmentKey(a.credentialid, a.userid ?? a.link);
    }
  }
}

/** Per user of a users page's items, the e-mail ids its item lists (`listedEmailIds`); empty for other lists. */
export function emailsListedOf(task: SyncTask, items: readonly AnyParsed[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  // a kept site's users list carries its people's e-mails as the customer-wide one does
  if (task.kind !== 'users' && task.kind !== 'siteUsers') return out;
  for (const u of items as Parsed<'user'>[]) {
    const ids = listedEmailIds(u);
    if (ids) out.set(u.userid, ids);
    else out.delete(u.userid);
  }
  return out;
}

/** A collection and records of its own type (as a sync message carries them). */
export type RecordBatch = PageRecords;

/**
 * How a task's page becomes cache records: the items, parsed by the task's schema, made records of their collections.
 */
interface RecordMaker<S extends SchemaName> {
  schema: S;
  make: (items: Parsed<S>[], task: SyncTask, siteid: number) => RecordBatch[];
}

const maker = <S extends SchemaName>(schema: S, make: RecordMaker<S>['make']): RecordMaker<S> => ({
  schema,
  make,
});

const USERS = maker('user', (users) => [
  { collection: 'emails', records: users.flatMap(emailsOfUser) },
  { collection: 'users', records: users.map(normalizeUser) },
]);
const CREDENTIALS = maker('credential', (items) => [
  { collection: 'credentials', records: items.map(normalizeCredential) },
]);
const CREDENTIAL_CATEGORIES = maker('credentialCategory', (items, _task, siteid) => [
  { collection: 'credentialCategories', records: items.map((c) => normalizeCredentialCategory(c, siteid)) },
]);
// (the kept sites' holders are picked in main by the engine's KeptPeople, before anything is sent)
const CREDENTIAL_ASSIGNMENTS = maker('credentialAssignment', (items) => [
  {
    collection: 'credentialAssignments',
    records: items
      .map((a) => normalizeCredentialAssignment(a))
      .filter((r): r is NonNullable<typeof r> => r !== null),
  },
]);

/** Per task kind, how its page becomes records (a kind without its maker is a type error). */
export const RECORD_MAKERS: { [K in TaskKind]: RecordMaker<SchemaName> } = {
  sites: maker('site', (items, task) => [
    { collection: 'sites', records: keptSitesOf(task, items).map(normalizeSite) },
  ]),
  otherSiteUsers: maker('user', () => []),
  users: USERS,
  siteUsers: USERS,
  credentials: CREDENTIALS,
  siteCredentials: CREDENTIALS,
  profileCategories: maker('profileCategory', (items) => [
    { collection: 'profileCategories', records: items.map(normalizeProfileCategory) },
  ]),
  groups: maker('group', (items, _task, siteid) => [
    { collection: 'groups', records: items.map((g) => normalizeGroup(g, siteid)) },
  ]),
  modules: maker('module', (items, _task, siteid) => [
    { collection: 'modules', records: items.map((m) => normalizeModule(m, siteid)) },
  ]),
  credentialCategories: CREDENTIAL_CATEGORIES,
  keptCredentialCategories: CREDENTIAL_CATEGORIES,
  courses: maker('course', (items, _task, siteid) => [
    { collection: 'courses', records: items.map((c) => normalizeCourse(c, siteid)) },
  ]),
  trainingAssignments: maker('trainingAssignment', (items, _task, siteid) => [
    { collection: 'trainingAssignments', records: items.map((t) => normalizeTrainingAssignment(t, siteid)) },
  ]),
  groupMembers: maker('groupMember', (items, task) => {
    const groupid = task.scope.groupid ?? 0;
    const records = items.map((m) => ({ id: groupUserKey(groupid, m.userid), groupid, userid: m.userid }));
    return [{ collection: 'groupMembers', records }];
  }),
  groupAccess: maker('accessUser', (items, task, siteid) => {
    const groupid = task.scope.groupid ?? 0;
    const records = items.map((u) => ({
      id: groupUserKey(groupid, u.userid),
      groupid,
      userid: u.userid,
      siteid,
    }));
    return [{ collection: 'groupAccess', records }];
  }),
  moduleAccess: maker('accessUser', (items, task, siteid) => {
    const accessID = task.scope.accessID ?? 0;
    const records = items.map((u) => ({
      id: moduleAccessKey(siteid, accessID, u.userid),
      accessID,
      siteid,
      userid: u.userid,
    }));
    return [{ collection: 'moduleAccess', records }];
  }),
  credentialAssignments: CREDENTIAL_ASSIGNMENTS,
  keptCredentialAssignments: CREDENTIAL_ASSIGNMENTS,
};

/** A page's items as cache records; users also yield the e-mails they carry (e-mails first). */
export function toRecords(task: SyncTask, items: readonly AnyParsed[]): RecordBatch[] {
  // the page was parsed by the task's schema, which is its maker's (the table test holds that)
  const { make } = RECORD_MAKERS[task.kind];
  return make(items as Parsed<SchemaName>[], task, task.scope.siteid ?? 0);
}
