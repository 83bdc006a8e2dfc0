/**
 * The names the Outbox needs to describe ops in words, read from the cache by key
 * (never whole tables but the small sites and categories). Groups and features carry
 * their site (every group name exists on every site), credentials their category.
 * A record the cache does not hold (any more) is named from what the outbox itself
 * recorded: a person or a training assignment one of its creates made (by the id
 * the server gave), an assignment a removal took away (its before-image).
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { credentialLabel, featureLabel, groupLabel } from '../../app/catalog.ts';
import { loadCatalogNames } from '../../app/catalog-names.ts';
import type { OpNames } from './describe.ts';
import { moduleKey } from '../../../shared/keys.ts';

function present<T>(rows: (T | undefined)[]): T[] {
  return rows.filter((r): r is T => r !== undefined);
}

type Transcript = { userid: number; courseid: number };

/** A person's name from their create's fields. */
const createdPersonName = (f: { firstname: string; lastname: string; username: string }) =>
  `${f.firstname} ${f.lastname}`.trim() || f.username;

/** The id a done create was given (null: none yet). */
function createdNumber(op: OutboxOp): number | null {
  return typeof op.createdId === 'number' && op.createdId > 0 ? op.createdId : null;
}

/** What the ops themselves say of the people and training assignments they created or removed. */
function recordedByOps(ops: readonly OutboxOp[]): {
  users: Map<number, string>;
  transcripts: Map<number, Transcript>;
} {
  const byId = new Map(ops.map((op) => [op.id, op]));
  const users = new Map<number, string>();
  const transcripts = new Map<number, Transcript>();
  for (const op of ops) {
    const spec = op.op;
    const id = createdNumber(op);
    if (spec.kind === 'user.create' && id !== null) users.set(id, createdPersonName(spec.fields));
    if (spec.kind === 'trainingAssignment.create' && id !== null) {
      // a person created in the same batch: the id their create was given
      const from = op.bindings?.find((b) => b.field === 'userid');
      const maker = from ? byId.get(from.fromOp) : undefined;
      const userid = spec.userid > 0 ? spec.userid : maker ? createdNumber(maker) : null;
      if (userid !== null) transcripts.set(id, { userid, courseid: spec.courseid });
    }
    const { userid, courseid } = op.base;
    if (
      spec.kind === 'trainingAssignment.delete' &&
      typeof userid === 'number' &&
      typeof courseid === 'number'
    )
      transcripts.set(spec.transcriptid, { userid, courseid });
  }
  return { users, transcripts };
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
    if ('accessID' in op) features.add(moduleKey(op.siteid, op.accessID));
    if ('credentialid' in op) credentials.add(op.credentialid);
    if ('courseid' in op) courses.add(op.courseid);
    if ('transcriptid' in op) transcripts.add(op.transcriptid);
    if (op.kind === 'email.remove') emails.add(op.emailid);
  }
  const recorded = recordedByOps(ops);
  const cachedTranscripts = present(await db.trainingAssignments.bulkGet([...transcripts]));
  const transcriptRows = [
    ...cachedTranscripts.map((t) => ({
      transcriptid: t.transcriptid,
      userid: t.userid,
      courseid: t.courseid,
    })),
  ];
  for (const id of transcripts) {
    const known = recorded.transcripts.get(id);
    if (known && !cachedTranscripts.some((t) => t.transcriptid === id))
      transcriptRows.push({ transcriptid: id, ...known });
  }
  for (const t of transcriptRows) {
    users.add(t.userid);
    courses.add(t.courseid);
  }
  const [catalog, userRows, groupRows, featureRows, credentialRows, courseRows, emailRows] =
    await Promise.all([
      loadCatalogNames(db),
      db.users.bulkGet([...users]),
      db.groups.bulkGet([...groups]),
      db.modules.bulkGet([...features]),
      db.credentials.bulkGet([...credentials]),
      db.courses.bulkGet([...courses]),
      db.emails.bulkGet([...emails]),
    ]);
  return {
    users: new Map([
      ...recorded.users,
      ...present(userRows).map((u): [number, string] => [
        u.userid,
        `${u.firstname} ${u.lastname}`.trim() || u.username,
      ]),
    ]),
    groups: new Map(present(groupRows).map((g) => [g.groupid, groupLabel(g, catalog)])),
    features: new Map(present(featureRows).map((m) => [m.id, featureLabel(m, catalog)])),
    credentials: new Map(present(credentialRows).map((c) => [c.credentialid, credentialLabel(c)])),
    courses: new Map(present(courseRows).map((c) => [c.courseid, c.coursename])),
    transcripts: new Map(
      transcriptRows.map((t) => [t.transcriptid, { userid: t.userid, courseid: t.courseid }]),
    ),
    emails: new Map(present(emailRows).map((e) => [e.emailid, e.email])),
  };
}
