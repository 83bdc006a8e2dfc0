/** A person's access to a feature of a site, in the renderer: granted or revoked in words, and the cached grant. */
import { moduleAccessKey } from '../../shared/keys.ts';
import type { OpSpecOf } from '../../shared/op-kinds/definition.ts';
import type { FieldbookDb } from '../db/rows.ts';
import { ABSENT, presentState, type RendererKind } from './definition.ts';

async function cachedGrant(db: FieldbookDb, spec: OpSpecOf<'moduleAccess.grant' | 'moduleAccess.revoke'>) {
  const grant = await db.moduleAccess.get(moduleAccessKey(spec.siteid, spec.accessID, spec.userid));
  return grant ? presentState(grant) : ABSENT;
}

export const moduleAccessGrant: RendererKind<'moduleAccess.grant'> = {
  describe: (spec, named) => `Give ${named.person(spec.userid)} ${named.feature(spec.siteid, spec.accessID)}`,
  action: (spec, named) => `Give ${named.feature(spec.siteid, spec.accessID)} to`,
  afterDone: (db, { siteid, accessID, userid }) =>
    db.moduleAccess.put({ id: moduleAccessKey(siteid, accessID, userid), accessID, siteid, userid }),
  cachedState: cachedGrant,
};

export const moduleAccessRevoke: RendererKind<'moduleAccess.revoke'> = {
  describe: (spec, named) =>
    `Take away ${named.feature(spec.siteid, spec.accessID)} from ${named.person(spec.userid)}`,
  action: (spec, named) => `Take away ${named.feature(spec.siteid, spec.accessID)} from`,
  afterDone: (db, spec) => db.moduleAccess.delete(moduleAccessKey(spec.siteid, spec.accessID, spec.userid)),
  cachedState: cachedGrant,
};
