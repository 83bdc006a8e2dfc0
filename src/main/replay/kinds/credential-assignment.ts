/**
 * A credential held by a person, on main's side: assigned by POST, changed by PUT, removed by DELETE on the
 * assignment `credentialid-userid`; read in the person's credentials, and the holders of one credential are a list.
 */
import { WrapperKey } from '../../../shared/api/index.ts';
import { credentialAssignmentKey, credentialAssignmentTargetKey } from '../../../shared/keys.ts';
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import { ABSENT, itemsOf, list, presentState, type ReplayClient } from '../read.ts';
import { ITS_PERSON, NO_PERSON, NOT_LISTED, type ListRoute, type ReplayKind } from './definition.ts';

type AssignmentSpec = OpSpecOf<
  'credentialAssignment.create' | 'credentialAssignment.update' | 'credentialAssignment.delete'
>;

const assignmentPath = (spec: AssignmentSpec) =>
  `/credentials/${spec.credentialid}/assignments/${credentialAssignmentKey(spec.credentialid, spec.userid)}`;

/** The person's credentials, the one asked for held or not. */
async function readAssignment(client: ReplayClient, spec: AssignmentSpec, signal?: AbortSignal) {
  const path = `/users/${spec.userid}/credentials`;
  const held = await list(client, path, ['Credentials'], 'credentialAssignment', signal);
  const assignment = held.find((a) => a.credentialid === spec.credentialid);
  const key = credentialAssignmentKey(spec.credentialid, spec.userid);
  return assignment ? presentState({ ...assignment }, key) : ABSENT;
}

/** The holders of one credential: a holder of another credential has no place in it, so is never trusted for one. */
function holdersOf(credentialid: number): ListRoute {
  return {
    path: `/credentials/${credentialid}/assignments`,
    recordsOf: (body, startrow) =>
      itemsOf(body, [WrapperKey.credentialAssignments], 'credentialAssignment', startrow).map((item) => {
        const { userid } = item;
        if (typeof userid !== 'number' || item.credentialid !== credentialid) return null;
        return {
          key: credentialAssignmentTargetKey(credentialid, userid),
          state: presentState({ ...item }, credentialAssignmentKey(credentialid, userid)),
        };
      }),
  };
}

export const credentialAssignmentCreate: ReplayKind<'credentialAssignment.create'> = {
  writeRequest: (spec) => ({
    method: 'POST',
    path: `/credentials/${spec.credentialid}/assignments`,
    body: { userid: spec.userid, ...spec.fields },
  }),
  readState: readAssignment,
  listedIn: NOT_LISTED,
  readsBack: true,
  personChanged: ITS_PERSON,
};

export const credentialAssignmentUpdate: ReplayKind<'credentialAssignment.update'> = {
  writeRequest: (spec) => ({ method: 'PUT', path: assignmentPath(spec), body: { ...spec.changes } }),
  readState: readAssignment,
  listedIn: (spec) => ({
    route: holdersOf(spec.credentialid),
    key: credentialAssignmentTargetKey(spec.credentialid, spec.userid),
  }),
  readsBack: true,
  personChanged: NO_PERSON,
};

export const credentialAssignmentDelete: ReplayKind<'credentialAssignment.delete'> = {
  writeRequest: (spec) => ({ method: 'DELETE', path: assignmentPath(spec) }),
  readState: readAssignment,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};
