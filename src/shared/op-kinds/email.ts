/** A person's e-mail address, added or removed (ordered with the person's other edits). */
import { userTargetKey } from '../keys.ts';
import { createdNumber, present, reverseByAdding, reverseByRemoving } from '../undo/reversal.ts';
import type { OpKindDefinition } from './definition.ts';

import { emailAddSchema, emailRemoveSchema } from './email.schema.ts';

const EMAIL = {
  featureTokenMaySend: false,
  changes: 'e-mail addresses',
  shows: 'emails',
} as const;

export const emailAdd: OpKindDefinition<'email.add'> = {
  ...EMAIL,
  schema: emailAddSchema,
  effect: 'create',
  createdIdField: 'emailid',
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: () => null,
  reverse: (op, spec) => {
    const emailid = createdNumber(op);
    if (emailid === null)
      return {
        kind: 'irreversible',
        reason: "The new e-mail's id was not recorded, so it cannot be removed from here.",
      };
    return reverseByRemoving(
      op,
      { kind: 'email.remove', userid: spec.userid, emailid },
      present({ email: spec.email }),
    );
  },
};

export const emailRemove: OpKindDefinition<'email.remove'> = {
  ...EMAIL,
  schema: emailRemoveSchema,
  effect: 'delete',
  createdIdField: null,
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: (spec) => spec.emailid,
  reverse: (op, spec) => {
    const email = op.base['email'];
    if (typeof email !== 'string' || email === '')
      return {
        kind: 'irreversible',
        reason: 'The removed address was not recorded, so it cannot be added back.',
      };
    return reverseByAdding(op, { kind: 'email.add', userid: spec.userid, email }, present({ email }));
  },
};
