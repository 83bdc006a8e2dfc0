/**
 * The names the Outbox needs to describe ops in words, read from the cache by key
 * (never whole tables but the small sites and categories). Groups and features carry
 * their site (every group name exists on every site), credentials their category.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { credentialLabel, featureLabel, groupLabel } from '../../app/catalog.ts';
import { loadCatalogNames } from '../../app/catalog-names.ts';
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
  const [catalog, userRows, groupRows, featureRows, credentialRows, courseRows, emailRows] = await Promise.all([
    loadCatalogNames(db),
    db.users.bulkGet([...users]),
    db.groups.bulkGet([...groups]),
    db.modules.bulkGet([...features]),
    db.credentials.bulkGet([...credentials]),
    db.courses.bulkGet([...courses]),
    db.emails.bulkGet([...emails]),
  ]);
  return {
    users: new Map(present(userRows).map((u) => [u.userid, `${u.firstname} ${u.lastname}`.trim() || u.username])),
    groups: new Map(present(groupRows).map((g) => [g.groupid, groupLabel(g, catalog)])),
    features: new Map(present(featureRows).map((m) => [m.id, featureLabel(m, catalog)])),
    credentials: new Map(present(credentialRows).map((c) => [c.credentialid, credentialLabel(c)])),
    courses: new Map(present(courseRows).map((c) => [c.courseid, c.coursename])),
    transcripts: new Map(transcriptRows.map((t) => [t.transcriptid, { userid: t.userid, courseid: t.courseid }])),
    emails: new Map(present(emailRows).map((e) => [e.emailid, e.email])),
  };
}
