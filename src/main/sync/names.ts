/**
 * The names of what a sync reads, for its messages: "the groups of Riverside
 * Plant", never "the groups of site 101" (a coordinator does not know site 101).
 * Filled during the pass from the validated items of the lists that carry
 * names (sites, groups, features, credential categories, credentials); those
 * lists grow the plan, so they are always read whole, before the lists they
 * create. A name not known (its list failed or is not read yet) becomes words
 * without an id: "the groups of a site". Main only; a name is plain text
 * (React shows it), cut to NAME_MAX characters.
 */
import type { Parsed } from '../../shared/api/wire.ts';
import type { AppError } from '../../shared/ipc.ts';
import type { SyncTask } from './tasks.ts';

/** Characters of a name kept in a message; a longer one ends with "…". */
export const NAME_MAX = 60;

/**
 * A name as a message shows it: control and format characters (newlines,
 * bidirectional overrides) and runs of spaces become one space, trimmed, at
 * most NAME_MAX characters (whole code points). Null when nothing is left.
 */
export function nameInMessage(raw: string): string | null {
  const text = raw.replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ').trim();
  if (text.length === 0) return null;
  const points = [...text];
  return points.length <= NAME_MAX
    ? text
    : `${points
        .slice(0, NAME_MAX - 1)
        .join('')
        .trimEnd()}…`;
}

type Items = readonly unknown[];

export class NameBook {
  readonly #sites = new Map<number, string>();
  readonly #groups = new Map<number, string>();
  readonly #features = new Map<number, string>();
  readonly #credentialCategories = new Map<number, string>();
  readonly #credentials = new Map<number, string>();

  /** A validated page of a task (one that passed the token check): the names it carries. */
  observe(task: SyncTask, items: Items): void {
    switch (task.kind) {
      case 'sites':
        return learn(this.#sites, items as Parsed<'site'>[], (s) => [s.siteid, s.sitename]);
      case 'groups':
        return learn(this.#groups, items as Parsed<'group'>[], (g) => [g.groupid, g.groupname]);
      case 'modules':
        return learn(this.#features, items as Parsed<'module'>[], (m) => [
          m.accessID,
          m.functionName ? `${m.moduleName}: ${m.functionName}` : m.moduleName,
        ]);
      case 'keptCredentialCategories':
      case 'credentialCategories':
        return learn(this.#credentialCategories, items as Parsed<'credentialCategory'>[], (c) => [
          c.categoryid,
          c.categoryname,
        ]);
      case 'credentials':
      case 'siteCredentials':
        return learn(this.#credentials, items as Parsed<'credential'>[], (c) => [
          c.credentialid,
          c.credentialname,
        ]);
      default:
    }
  }

  /** The list a task reads, in the coordinator's words ("the holders of Forklift Licence"). */
  describe(task: SyncTask): string {
    const { siteid, groupid, accessID, credentialid, categoryid } = task.scope;
    const site = named(this.#sites, siteid) ?? 'a site';
    const atSite = (what: string) => (siteid === undefined ? what : `${what} at ${site}`);
    const group = named(this.#groups, groupid) ?? 'a group';
    switch (task.kind) {
      case 'sites':
        return 'the list of sites';
      case 'users':
        return 'the list of users';
      case 'credentials':
        return 'the list of credentials';
      case 'profileCategories':
        return `the profile categories of ${site}`;
      case 'groups':
        return `the groups of ${site}`;
      case 'modules':
        return `the features of ${site}`;
      case 'credentialCategories':
      case 'keptCredentialCategories':
        return `the credential categories of ${site}`;
      case 'siteCredentials':
        return atSite(
          `the credentials in ${named(this.#credentialCategories, categoryid) ?? 'a credential category'}`,
        );
      case 'courses':
        return `the courses of ${site}`;
      case 'trainingAssignments':
        return `the training assignments of ${site}`;
      case 'groupMembers':
        return atSite(`the members of ${group}`);
      case 'groupAccess':
        return atSite(`the supervisors of ${group}`);
      case 'moduleAccess':
        return atSite(`the users given ${named(this.#features, accessID) ?? 'a feature'}`);
      case 'credentialAssignments':
      case 'keptCredentialAssignments':
        return `the holders of ${named(this.#credentials, credentialid) ?? 'a credential'}`;
      case 'siteUsers':
        return `the users of ${site}`;
      case 'otherSiteUsers':
        return `the usernames and e-mails of ${site} (not kept on this laptop)`;
    }
  }
}

function learn<T>(
  book: Map<number, string>,
  items: readonly T[],
  entry: (item: T) => [number, string],
): void {
  for (const item of items) {
    const [id, raw] = entry(item);
    const name = nameInMessage(raw);
    if (name) book.set(id, name);
    else book.delete(id);
  }
}

function named(book: ReadonlyMap<number, string>, id: number | undefined): string | undefined {
  return id === undefined ? undefined : book.get(id);
}

/** "The groups of North: …" — a sentence may begin with a list's description. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * An API error's message with the task's route ("/sites/101/access/groups: ")
 * in words: taken out when the caller names the list after it, else the list.
 */
function withoutRoute(message: string, task: SyncTask, list?: string): string {
  return message
    .replaceAll(`${task.path}: `, list === undefined ? '' : `${list}: `)
    .replaceAll(task.path, list ?? 'the list');
}

/** A failure that stops the whole sync, in words: a route in it becomes the list's description. */
export function fatalInWords(error: AppError, task: SyncTask, list: string): AppError {
  return error.message.includes(task.path)
    ? { ...error, message: capitalised(withoutRoute(error.message, task, list)) }
    : error;
}

/**
 * What a list stopped by a record that could not be read means for the cache:
 * the pass removes nothing (prune.ts: not after a failed list), the pages read
 * before it were stored, the rest keeps what it had; the next sync reads it again.
 */
const AFTER_UNREADABLE_RECORD = 'Nothing was removed from this laptop; the next sync tries again.';

/**
 * The error shown on a collection when a list failed: its own list ("… (while reading X)") or one it comes from.
 * `record`: the list was stopped by a record that could not be read ("row 5, Maria Bailey: the e-mail address is …").
 */
export function collectionFailure(
  error: AppError,
  task: SyncTask,
  list: string,
  own: boolean,
  record?: string,
): AppError {
  if (record !== undefined) {
    const failed = `${list} could not be read: ${record}. ${AFTER_UNREADABLE_RECORD}`;
    return { ...error, message: own ? capitalised(failed) : `Not synced, because ${failed}` };
  }
  const message = withoutRoute(error.message, task);
  return own
    ? { ...error, message: `${message} (while reading ${list})` }
    : { ...error, message: `Not synced, because ${list} could not be read: ${message}` };
}

/** "The groups of North: the server is busy; retrying (2 of 4)…" (shown while a request waits to be tried again). */
export function retryNotice(
  task: SyncTask,
  list: string,
  notice: { attempt: number; of: number; error: AppError },
): string {
  const what = capitalised(list);
  const why = withoutRoute(notice.error.message, task).replace(/\.$/, '');
  return `${what}: ${why}; retrying (${notice.attempt} of ${notice.of})…`;
}

/** The refusal of a page that echoes the token (it is not stored). */
export function tokenInPage(list: string, startrow: number): string {
  return `A page of ${list} (from row ${startrow}) contains this profile's access token, so it was not stored.`;
}
