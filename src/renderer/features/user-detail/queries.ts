/** Everything the user detail view shows, read from the cache. */
import type {
  CredentialAssignmentRecord,
  CredentialRecord,
  EmailRecord,
  GroupRecord,
  ModuleRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../../shared/records.ts';
import type { UserDetailOnline } from '../../../shared/ipc.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { applyOverlays, pendingSnapshot, type PendingMark } from '../../app/overlays.ts';
import { moduleKey } from '../../../shared/keys.ts';

export interface HeldCredential {
  assignment: CredentialAssignmentRecord & PendingMark;
  /** undefined when the credential itself is not cached (e.g. a partial sync) */
  credential: CredentialRecord | undefined;
}

export interface UserDetail {
  user: UserRecord & PendingMark;
  /** the user's site name, when the site is cached */
  sitename: string | null;
  emails: (EmailRecord & PendingMark)[];
  /** profile groups the user is a member of */
  groups: GroupRecord[];
  /** groups the user has supervisor access over (a pending grant or revoke marked) */
  accessGroups: (GroupRecord & PendingMark)[];
  /** application features the user has access to */
  features: (ModuleRecord & PendingMark)[];
  credentials: HeldCredential[];
  training: (TrainingAssignmentRecord & PendingMark)[];
}

function present<T>(x: T | undefined): x is T {
  return x !== undefined;
}

/** The mark of a grant on the record it grants (a group, a feature). */
function marked<T>(record: T, mark: PendingMark): T & PendingMark {
  return mark.pendingOps
    ? {
        ...record,
        pendingOps: mark.pendingOps,
        ...(mark.pendingChange ? { pendingChange: mark.pendingChange } : {}),
      }
    : (record as T & PendingMark);
}

/** Everything cached under one person, each list read by its `userid` index: one round, in parallel. */
function cachedUnder(db: FieldbookDb, userid: number) {
  return Promise.all([
    db.users.get(userid),
    db.emails.where('userid').equals(userid).toArray(),
    db.groupMembers.where('userid').equals(userid).toArray(),
    db.groupAccess.where('userid').equals(userid).toArray(),
    db.moduleAccess.where('userid').equals(userid).toArray(),
    db.credentialAssignments.where('userid').equals(userid).toArray(),
    db.trainingAssignments.where('userid').equals(userid).toArray(),
  ]);
}

/**
 * Null when the user is neither cached nor created offline. Everything in its
 * effective state: the pending operations applied and marked.
 *
 * Two rounds of reads (under a busy machine each round waits its turn for a
 * core twice, in the page and in the browser): the person with every list under
 * them and the pending operations about them only (so the records other
 * people's edits touch are not read), then the names those lists point at.
 */
export async function loadUserDetail(db: FieldbookDb, userid: number): Promise<UserDetail | null> {
  const mine = (r: { userid: number }) => r.userid === userid;
  const [[cached, ...lists], pending] = await Promise.all([
    cachedUnder(db, userid),
    pendingSnapshot(db, { userid }),
  ]);
  const [user] = await applyOverlays('users', pending, cached ? [cached] : [], mine);
  if (!user) return null;
  const [cachedEmails, memberships, cachedAccess, cachedModuleAccess, cachedAssignments, cachedTraining] =
    lists;
  const [emails, access, moduleAccess, assignments, training] = await Promise.all([
    applyOverlays('emails', pending, cachedEmails, mine),
    applyOverlays('groupAccess', pending, cachedAccess, mine),
    applyOverlays('moduleAccess', pending, cachedModuleAccess, mine),
    applyOverlays('credentialAssignments', pending, cachedAssignments, mine),
    applyOverlays('trainingAssignments', pending, cachedTraining, mine),
  ]);
  const [site, groups, accessGroups, features, credentials] = await Promise.all([
    db.sites.get(user.siteid),
    db.groups.bulkGet(memberships.map((m) => m.groupid)),
    db.groups.bulkGet(access.map((a) => a.groupid)),
    db.modules.bulkGet(moduleAccess.map((m) => moduleKey(m.siteid, m.accessID))),
    db.credentials.bulkGet(assignments.map((a) => a.credentialid)),
  ]);
  training.sort((a, b) => (a.dueIso || '9999').localeCompare(b.dueIso || '9999'));
  const held = assignments.map((assignment, i) => ({ assignment, credential: credentials[i] }));
  held.sort((a, b) =>
    (a.assignment.expirationIso || '9999').localeCompare(b.assignment.expirationIso || '9999'),
  );
  return {
    user,
    sitename: site?.sitename ?? null,
    emails,
    groups: groups.filter(present),
    accessGroups: access.flatMap((a, i) => (accessGroups[i] ? [marked(accessGroups[i], a)] : [])),
    features: moduleAccess.flatMap((m, i) => (features[i] ? [marked(features[i], m)] : [])),
    credentials: held,
    training,
  };
}

/** Replaces the cached e-mails of a user with what the API just answered (removed addresses go). */
export async function cacheUserEmails(db: FieldbookDb, detail: UserDetailOnline): Promise<void> {
  await db.transaction('rw', db.emails, async () => {
    const keep = new Set(detail.emails.map((e) => e.emailid));
    const old = await db.emails.where('userid').equals(detail.userid).primaryKeys();
    await db.emails.bulkDelete(old.filter((k) => !keep.has(k)));
    await db.emails.bulkPut(detail.emails.map((e) => ({ ...e, userid: detail.userid })));
  });
}
