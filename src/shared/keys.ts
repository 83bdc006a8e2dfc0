/**
 * Every composite key in one place: the cache's primary keys of the records the
 * platform identifies by two or three ids, and the outbox's target keys (the
 * record an op acts on; ops of one target replay in order). A key's shape
 * changes here or nowhere. Pure.
 *
 * A user id may be a placeholder (a person created offline, not yet sent): the
 * target keys take it as a string then.
 */

type UserRef = number | string;

/** A member of a profile group, and a supervisor's access over a group: `${groupid}-${userid}`. */
export function groupUserKey(groupid: number, userid: UserRef): string {
  return `${groupid}-${userid}`;
}

/** A feature (module) of a site: `${siteid}-${accessID}`. */
export function moduleKey(siteid: number, accessID: number): string {
  return `${siteid}-${accessID}`;
}

/** A user's access to a feature of a site: `${siteid}-${accessID}-${userid}`. */
export function moduleAccessKey(siteid: number, accessID: number, userid: UserRef): string {
  return `${moduleKey(siteid, accessID)}-${userid}`;
}

/** A credential held by a user, the API's own assignment id: `${credentialid}-${userid}`. */
export function credentialAssignmentKey(credentialid: number, userid: UserRef): string {
  return `${credentialid}-${userid}`;
}

/** A course assigned to a user, by who and which course (the cache keys it by transcript id). */
export function courseOfUserKey(userid: UserRef, courseid: number): string {
  return `${userid}-${courseid}`;
}

// ---- target keys (the outbox's `targetKey`) ----

/** A person, by their id (a person created offline: the key their create was queued under). */
export function userTargetKey(userid: number, tempUserKey?: string): string {
  return userid > 0 ? `user:${userid}` : (tempUserKey ?? `user:${userid}`);
}

/** A person still to be created: their site and username (the username is unique per site, whatever its case). */
export function newUserTargetKey(siteid: number, username: string): string {
  return `user:new:${siteid}:${username.toLowerCase()}`;
}

/** The user id a target key carries: the id, or the placeholder of a person created offline. */
export function targetUserRef(userid: number, tempUserKey?: string): UserRef {
  return userid > 0 ? userid : (tempUserKey ?? userid);
}

export function groupAccessTargetKey(groupid: number, userid: UserRef): string {
  return `groupAccess:${groupUserKey(groupid, userid)}`;
}

export function moduleAccessTargetKey(siteid: number, accessID: number, userid: UserRef): string {
  return `moduleAccess:${moduleAccessKey(siteid, accessID, userid)}`;
}

export function credentialAssignmentTargetKey(credentialid: number, userid: UserRef): string {
  return `credentialAssignment:${credentialAssignmentKey(credentialid, userid)}`;
}

/** A training assignment still to be created (it has no transcript id yet). */
export function newTrainingAssignmentTargetKey(userid: UserRef, courseid: number): string {
  return `trainingAssignment:new:${courseOfUserKey(userid, courseid)}`;
}

export function trainingAssignmentTargetKey(transcriptid: number): string {
  return `trainingAssignment:${transcriptid}`;
}

/** A person's e-mail added, as the undo judges it: by its address (no id until the server gives one). */
export function emailAddressKey(userid: number, email: string): string {
  return `email:${userid}:${email.trim().toLowerCase()}`;
}

/** A person's e-mail removed, as the undo judges it: by its id. */
export function emailIdKey(userid: number, emailid: number): string {
  return `email:${userid}:#${emailid}`;
}
