/** A person: their fields changed, or a new person created on a site. */
import { newUserTargetKey, userTargetKey } from '../keys.ts';
import { createdNumber, present, reverseUpdate } from '../undo/reversal.ts';
import type { BaseValues } from '../outbox.ts';
import type { OpKindDefinition } from './definition.ts';

import { userUpdateSchema, userCreateSchema } from './user.schema.ts';

export const userUpdate: OpKindDefinition<'user.update'> = {
  schema: userUpdateSchema,
  effect: 'update',
  createdIdField: null,
  featureTokenMaySend: false,
  changes: 'people',
  shows: 'users',
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: (spec) => spec.userid,
  reverse: (op, spec) =>
    reverseUpdate(op, spec.changes, (changes) => ({ kind: 'user.update', userid: spec.userid, changes })),
};

const PERSON_CANNOT_BE_DELETED = 'A person cannot be deleted through the API: they stay on the site.';

export const userCreate: OpKindDefinition<'user.create'> = {
  schema: userCreateSchema,
  effect: 'create',
  createdIdField: 'userid',
  featureTokenMaySend: false,
  changes: 'people',
  shows: 'users',
  targetKey: (spec, tempUserKey) => tempUserKey ?? newUserTargetKey(spec.siteid, spec.fields.username),
  recordKey: () => null,
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
      reason: `${PERSON_CANNOT_BE_DELETED} They can be set Inactive instead.`,
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
