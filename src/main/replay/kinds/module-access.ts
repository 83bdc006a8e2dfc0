/** A person's access to a feature (module) of a site, on main's side: granted by POST, revoked by DELETE. */
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import { ABSENT, list, presentState, type ReplayClient } from '../read.ts';
import { ITS_PERSON, NOT_LISTED, type ReplayKind } from './definition.ts';

/** The person's features, the one asked for present or not. */
async function readModuleAccess(
  client: ReplayClient,
  spec: OpSpecOf<'moduleAccess.grant' | 'moduleAccess.revoke'>,
  signal?: AbortSignal,
) {
  const modules = await list(client, `/users/${spec.userid}/access/modules`, ['modules'], 'module', signal);
  const module = modules.find((m) => m.accessID === spec.accessID);
  return module ? presentState({ ...module }) : ABSENT;
}

export const moduleAccessGrant: ReplayKind<'moduleAccess.grant'> = {
  writeRequest: (spec) => ({
    method: 'POST',
    path: `/sites/${spec.siteid}/access/modules/${spec.accessID}/users`,
    body: { userid: spec.userid },
  }),
  readState: readModuleAccess,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: ITS_PERSON,
};

export const moduleAccessRevoke: ReplayKind<'moduleAccess.revoke'> = {
  writeRequest: (spec) => ({
    method: 'DELETE',
    path: `/users/${spec.userid}/access/modules/${spec.accessID}`,
  }),
  readState: readModuleAccess,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: ITS_PERSON,
};
