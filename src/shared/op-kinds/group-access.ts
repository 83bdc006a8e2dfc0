/** A person's access over a profile group (a supervisor's), granted or revoked. */
import { groupAccessTargetKey, groupUserKey, targetUserRef } from '../keys.ts';
import { present, reverseByAdding, reverseByRemoving } from '../undo/reversal.ts';
import { removing, type OpKindDefinition, type OpSpecOf } from './definition.ts';

import { groupAccessGrantSchema, groupAccessRevokeSchema } from './group-access.schema.ts';

const GROUP_ACCESS = {
  undoRecordKey: null,
  createdIdField: null,
  featureTokenMaySend: false,
  changes: 'group access',
  shows: 'groupAccess',
  targetKey: (spec: OpSpecOf<'groupAccess.grant' | 'groupAccess.revoke'>, tempUserKey?: string) =>
    groupAccessTargetKey(spec.groupid, targetUserRef(spec.userid, tempUserKey)),
  recordKey: (spec: OpSpecOf<'groupAccess.grant' | 'groupAccess.revoke'>) =>
    groupUserKey(spec.groupid, spec.userid),
} as const;

export const groupAccessGrant: OpKindDefinition<'groupAccess.grant', 'groupAccess'> = {
  ...GROUP_ACCESS,
  schema: groupAccessGrantSchema,
  effect: 'create',
  overlay: ({ groupid, userid, siteid }, current) =>
    current
      ? { record: current, change: 'update' }
      : { record: { id: groupUserKey(groupid, userid), groupid, userid, siteid }, change: 'create' },
  reverse: (op, spec) => reverseByRemoving(op, { ...spec, kind: 'groupAccess.revoke' }, present()),
};

export const groupAccessRevoke: OpKindDefinition<'groupAccess.revoke', 'groupAccess'> = {
  ...GROUP_ACCESS,
  schema: groupAccessRevokeSchema,
  effect: 'delete',
  overlay: removing,
  reverse: (op, spec) => reverseByAdding(op, { ...spec, kind: 'groupAccess.grant' }, present()),
};
