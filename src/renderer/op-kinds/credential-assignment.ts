/** A credential held by a person, in the renderer: assigned, changed or removed in words, and the cached assignment. */
import { credentialAssignmentKey } from '../../shared/keys.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import { ownedBy } from '../app/words.ts';
import type { FieldbookDb } from '../db/rows.ts';
import { ABSENT, presentState, type RendererKind } from './definition.ts';
import { changesInWords, span } from './words.ts';

type AssignmentSpec = OpSpecOf<
  'credentialAssignment.create' | 'credentialAssignment.update' | 'credentialAssignment.delete'
>;

async function cachedAssignment(db: FieldbookDb, spec: AssignmentSpec) {
  const key = credentialAssignmentKey(spec.credentialid, spec.userid);
  const held = await db.credentialAssignments.get(key);
  return held ? presentState(held, key) : ABSENT;
}

export const credentialAssignmentCreate: RendererKind<'credentialAssignment.create'> = {
  describe: (spec, named) => {
    const dates = span(spec.fields.startdate, spec.fields.expirationdate);
    return `Assign ${named.credential(spec.credentialid)} to ${named.person(spec.userid)}${dates}`;
  },
  action: (spec, named) => `Assign ${named.credential(spec.credentialid)} to`,
  cachedState: cachedAssignment,
};

export const credentialAssignmentUpdate: RendererKind<'credentialAssignment.update'> = {
  describe: (spec, named) => {
    const held = ownedBy(named.person(spec.userid), named.credential(spec.credentialid));
    return `Change ${changesInWords(spec.changes)} of ${held}`;
  },
  action: (spec, named) => `Renew ${named.credential(spec.credentialid)} of`,
  whose: (spec, named) => ownedBy(named.person(spec.userid), named.credential(spec.credentialid)),
  cachedState: cachedAssignment,
};

export const credentialAssignmentDelete: RendererKind<'credentialAssignment.delete'> = {
  describe: (spec, named) =>
    `Remove ${named.credential(spec.credentialid)} from ${named.person(spec.userid)}`,
  action: (spec, named) => `Remove ${named.credential(spec.credentialid)} from`,
  cachedState: cachedAssignment,
};
