/** A person's access to a feature (module) of a site, granted or revoked. */
import { moduleAccessKey, moduleAccessTargetKey, targetUserRef } from '../keys.ts';
import { present, reverseByAdding, reverseByRemoving } from '../undo/reversal.ts';
import { removing, type OpKindDefinition, type OpSpecOf } from './definition.ts';

import { moduleAccessGrantSchema, moduleAccessRevokeSchema } from './module-access.schema.ts';

const MODULE_ACCESS = {
  undoRecordKey: null,
  createdIdField: null,
  // a token limited to one feature may give and take that feature (the server decides which)
  featureTokenMaySend: true,
  changes: 'feature access',
  shows: 'moduleAccess',
  targetKey: (spec: OpSpecOf<'moduleAccess.grant' | 'moduleAccess.revoke'>, tempUserKey?: string) =>
    moduleAccessTargetKey(spec.siteid, spec.accessID, targetUserRef(spec.userid, tempUserKey)),
  recordKey: (spec: OpSpecOf<'moduleAccess.grant' | 'moduleAccess.revoke'>) =>
    moduleAccessKey(spec.siteid, spec.accessID, spec.userid),
} as const;

export const moduleAccessGrant: OpKindDefinition<'moduleAccess.grant', 'moduleAccess'> = {
  ...MODULE_ACCESS,
  schema: moduleAccessGrantSchema,
  effect: 'create',
  overlay: ({ siteid, accessID, userid }, current) =>
    current
      ? { record: current, change: 'update' }
      : {
          record: { id: moduleAccessKey(siteid, accessID, userid), accessID, siteid, userid },
          change: 'create',
        },
  reverse: (op, spec) => reverseByRemoving(op, { ...spec, kind: 'moduleAccess.revoke' }, present()),
};

export const moduleAccessRevoke: OpKindDefinition<'moduleAccess.revoke', 'moduleAccess'> = {
  ...MODULE_ACCESS,
  schema: moduleAccessRevokeSchema,
  effect: 'delete',
  overlay: removing,
  reverse: (op, spec) => reverseByAdding(op, { ...spec, kind: 'moduleAccess.grant' }, present()),
};
