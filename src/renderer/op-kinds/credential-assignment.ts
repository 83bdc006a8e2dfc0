/** A credential held by a person, in the renderer: assigned, changed or removed in words, and the cached assignment. */
import { credentialAssignmentKey } from '../../shared/keys.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import { ownedBy } from '../app/words.ts';
import type { FieldbookDb } from '../db/rows.ts';
import { toIsoDate } from '../../shared/dates.ts';
import { text } from '../outbox/refreshed.ts';
import { ABSENT, presentState, type DoneOutcome, type RendererKind } from './definition.ts';
import { changesInWords, span } from './words.ts';

type AssignmentSpec = OpSpecOf<
  'credentialAssignment.create' | 'credentialAssignment.update' | 'credentialAssignment.delete'
>;

async function cachedAssignment(db: FieldbookDb, spec: AssignmentSpec) {
  const key = credentialAssignmentKey(spec.credentialid, spec.userid);
  const held = await db.credentialAssignments.get(key);
  return held ? presentState(held, key) : ABSENT;
}

/** The assignment as the server holds it after the write (read back), over what was sent and what was cached. */
async function putAssignment(
  db: FieldbookDb,
  spec: OpSpecOf<'credentialAssignment.create' | 'credentialAssignment.update'>,
  outcome: DoneOutcome,
): Promise<void> {
  const key = credentialAssignmentKey(spec.credentialid, spec.userid);
  const current = await db.credentialAssignments.get(key);
  const fields = spec.kind === 'credentialAssignment.create' ? spec.fields : spec.changes;
  const after = { ...fields, ...(outcome.after ?? {}) };
  const startdate = text(after['startdate'], current?.startdate);
  const expirationdate = text(after['expirationdate'], current?.expirationdate);
  await db.credentialAssignments.put({
    id: key,
    credentialid: spec.credentialid,
    userid: spec.userid,
    attachmentcount: current?.attachmentcount ?? 0,
    startdate,
    startIso: toIsoDate(startdate),
    expirationdate,
    expirationIso: toIsoDate(expirationdate),
    credentialnumber: text(after['credentialnumber'], current?.credentialnumber),
    status: text(after['status'], current?.status ?? 'active'),
    notes: text(after['notes'], current?.notes),
  });
}

export const credentialAssignmentCreate: RendererKind<'credentialAssignment.create'> = {
  describe: (spec, named) => {
    const dates = span(spec.fields.startdate, spec.fields.expirationdate);
    return `Assign ${named.credential(spec.credentialid)} to ${named.person(spec.userid)}${dates}`;
  },
  action: (spec, named) => `Assign ${named.credential(spec.credentialid)} to`,
  afterDone: putAssignment,
  cachedState: cachedAssignment,
};

export const credentialAssignmentUpdate: RendererKind<'credentialAssignment.update'> = {
  describe: (spec, named) => {
    const held = ownedBy(named.person(spec.userid), named.credential(spec.credentialid));
    return `Change ${changesInWords(spec.changes)} of ${held}`;
  },
  action: (spec, named) => `Renew ${named.credential(spec.credentialid)} of`,
  afterDone: putAssignment,
  whose: (spec, named) => ownedBy(named.person(spec.userid), named.credential(spec.credentialid)),
  cachedState: cachedAssignment,
};

export const credentialAssignmentDelete: RendererKind<'credentialAssignment.delete'> = {
  describe: (spec, named) =>
    `Remove ${named.credential(spec.credentialid)} from ${named.person(spec.userid)}`,
  action: (spec, named) => `Remove ${named.credential(spec.credentialid)} from`,
  afterDone: (db, spec) =>
    db.credentialAssignments.delete(credentialAssignmentKey(spec.credentialid, spec.userid)),
  cachedState: cachedAssignment,
};
