/** A person's access over a profile group, in the renderer: granted or revoked in words, and the cached grant. */
import { groupUserKey } from '../../shared/keys.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import { ownedBy } from '../app/words.ts';
import type { FieldbookDb } from '../db/rows.ts';
import { ABSENT, presentState, type RendererKind } from './definition.ts';

async function cachedGrant(db: FieldbookDb, spec: OpSpecOf<'groupAccess.grant' | 'groupAccess.revoke'>) {
  const grant = await db.groupAccess.get(groupUserKey(spec.groupid, spec.userid));
  return grant ? presentState(grant) : ABSENT;
}

export const groupAccessGrant: RendererKind<'groupAccess.grant'> = {
  describe: (spec, named) => `Give ${named.person(spec.userid)} access over ${named.group(spec.groupid)}`,
  action: (spec, named) => `Give access over ${named.group(spec.groupid)} to`,
  afterDone: (db, { groupid, userid, siteid }) =>
    db.groupAccess.put({ id: groupUserKey(groupid, userid), groupid, userid, siteid }),
  cachedState: cachedGrant,
};

export const groupAccessRevoke: RendererKind<'groupAccess.revoke'> = {
  describe: (spec, named) =>
    `Take away ${ownedBy(named.person(spec.userid), 'access')} over ${named.group(spec.groupid)}`,
  action: (spec, named) => `Take away access over ${named.group(spec.groupid)} from`,
  afterDone: (db, spec) => db.groupAccess.delete(groupUserKey(spec.groupid, spec.userid)),
  cachedState: cachedGrant,
};
