/** A person: their fields changed, or a new person created on a site. */
import { newUserTargetKey, userTargetKey } from '../keys.ts';
import { createdNumber, present, reverseUpdate } from '../undo/reversal.ts';
import type { BaseValues } from '../outbox.ts';
import { userSearchKeys, userSortName, type UserRecord } from '../records.ts';
import type { OpKindDefinition, OpSpecOf } from './definition.ts';

import { userUpdateSchema, userCreateSchema } from './user.schema.ts';

export const userUpdate: OpKindDefinition<'user.update', 'users'> = {
  schema: userUpdateSchema,
  effect: 'update',
  createdIdField: null,
  featureTokenMaySend: false,
  changes: 'people',
  shows: 'users',
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: (spec) => spec.userid,
  undoRecordKey: null,
  overlay: (spec, current) => {
    if (!current) return null;
    const next = { ...current, ...spec.changes };
    const record = { ...next, searchKeys: userSearchKeys(next), sortName: userSortName(next) };
    return { record, change: 'update', fields: Object.keys(spec.changes) };
  },
  reverse: (op, spec) =>
    reverseUpdate(op, spec.changes, (changes) => ({ kind: 'user.update', userid: spec.userid, changes })),
};

/** A person created offline as the views list them until the server gives their id. */
function createdUser({ siteid, fields }: OpSpecOf<'user.create'>, userid: number): UserRecord {
  const employeeid = fields.employeeid ?? '';
  return {
    userid,
    siteid,
    username: fields.username,
    firstname: fields.firstname,
    lastname: fields.lastname,
    employeeid,
    status: fields.status ?? 'Active',
    usertype: 'User',
    searchKeys: userSearchKeys({ ...fields, employeeid }),
    sortName: userSortName(fields),
  };
}

const PERSON_CANNOT_BE_DELETED = 'Fieldbook cannot delete a person on the platform: they stay on the site.';

export const userCreate: OpKindDefinition<'user.create', 'users'> = {
  schema: userCreateSchema,
  effect: 'create',
  createdIdField: 'userid',
  featureTokenMaySend: false,
  changes: 'people',
  shows: 'users',
  targetKey: (spec, tempUserKey) => tempUserKey ?? newUserTargetKey(spec.siteid, spec.fields.username),
  recordKey: () => null,
  undoRecordKey: null,
  overlay: (spec, _current, standInId) => ({ record: createdUser(spec, standInId), change: 'create' }),
  // a person cannot be deleted: the offer is to set them Inactive
  reverse: (op, spec) => {
    const userid = createdNumber(op);
    if (userid === null)
      return {
        kind: 'irreversible',
        reason: `${PERSON_CANNOT_BE_DELETED} Their new id was not recorded, so they cannot be set Inactive from here either.`,
      };
    const status = spec.fields.status;
    const applied: Record<string, string> = status ? { status } : { username: spec.fields.username };
    const base: BaseValues = status ? { status } : {};
    return {
      kind: 'irreversible',
      // the preview says the offer after the reason ("Offered instead: Ann Lee: set status to Inactive")
      reason: PERSON_CANNOT_BE_DELETED,
      offer: {
        label: 'Set Inactive instead',
        op: { kind: 'user.update', userid, changes: { status: 'Inactive' } },
        base,
        summary: `Undo: ${op.summary}: set Inactive (a person cannot be deleted)`,
        before: present({ status: 'Inactive' }),
        applied: present(applied),
      },
    };
  },
};
