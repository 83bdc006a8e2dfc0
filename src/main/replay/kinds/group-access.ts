/** A person's access over a profile group, on main's side: granted by POST, revoked by DELETE. */
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import { ABSENT, list, presentState, type ReplayClient } from '../read.ts';
import { ITS_PERSON, NOT_LISTED, type ReplayKind } from './definition.ts';

/** The person's groups, the one asked for present or not. */
async function readGroupAccess(
  client: ReplayClient,
  spec: OpSpecOf<'groupAccess.grant' | 'groupAccess.revoke'>,
  signal?: AbortSignal,
) {
  const groups = await list(client, `/users/${spec.userid}/access/groups`, ['groups'], 'group', signal);
  const group = groups.find((g) => g.groupid === spec.groupid);
  return group ? presentState({ ...group }) : ABSENT;
}

export const groupAccessGrant: ReplayKind<'groupAccess.grant'> = {
  writeRequest: (spec) => ({
    method: 'POST',
    path: `/sites/${spec.siteid}/access/groups/${spec.groupid}/users`,
    body: { userid: spec.userid },
  }),
  readState: readGroupAccess,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: ITS_PERSON,
};

export const groupAccessRevoke: ReplayKind<'groupAccess.revoke'> = {
  writeRequest: (spec) => ({ method: 'DELETE', path: `/users/${spec.userid}/access/groups/${spec.groupid}` }),
  readState: readGroupAccess,
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: ITS_PERSON,
};
