/** The names the Outbox needs to describe ops in words, read from the cache by key (never whole tables). */
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { FieldbookDb } from '../../db/index.ts';
import type { OpNames } from './describe.ts';

function present<T>(rows: (T | undefined)[]): T[] {
  return rows.filter((r): r is T => r !== undefined);
}

export async function loadOpNames(db: FieldbookDb, ops: readonly OutboxOp[]): Promise<OpNames> {
  const users = new Set<number>();
  const groups = new Set<number>();
  const features = new Set<string>();
  const credentials = new Set<number>();
  const courses = new Set<number>();
  const transcripts = new Set<number>();
  const emails = new Set<number>();
  for (const { op } of ops) {
    if ('userid' in op && op.userid > 0) users.add(op.userid);
    if ('groupid' in op) groups.add(op.groupid);
    if ('accessID' in op) features.add(`${op.siteid}-${op.accessID}`);
    if ('credentialid' in op) credentials.add(op.credentialid);
    if ('courseid' in op) courses.add(op.courseid);
    if ('transcriptid' in op) transcripts.add(op.transcriptid);
    if (op.kind === 'email.remove') emails.add(op.emailid);
  }
  const transcriptRows = present(await db.trainingAssignments.bulkGet([...transcripts]));
  for (const t of transcriptRows) {
    users.add(t.userid);
    courses.add(t.courseid);
  }
  const [userRows, groupRows, featureRows, credentialRows, courseRows, emailRows] = await Promise.all([
    db.users.bulkGet([...users]),
    db.groups.bulkGet([...groups]),
    db.modules.bulkGet([...features]),
    db.credentials.bulkGet([...credentials]),
    db.courses.bulkGet([...courses]),
    db.emails.bulkGet([...emails]),
  ]);
  return {
    users: new Map(present(userRows).map((u) => [u.userid, `${u.firstname} ${u.lastname}`.trim() || u.username])),
    groups: new Map(present(groupRows).map((g) => [g.groupid, g.groupname])),
    features: new Map(present(featureRows).map((m) => [m.id, `${m.moduleName} — ${m.functionName}`])),
    credentials: new Map(present(credentialRows).map((c) => [c.credentialid, c.credentialname])),
    courses: new Map(present(courseRows).map((c) => [c.courseid, c.coursename])),
    transcripts: new Map(transcriptRows.map((t) => [t.transcriptid, { userid: t.userid, courseid: t.courseid }])),
    emails: new Map(present(emailRows).map((e) => [e.emailid, e.email])),
  };
}
