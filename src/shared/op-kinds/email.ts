/** A person's e-mail address, added or removed (ordered with the person's other edits). */
import { emailAddressKey, emailIdKey, userTargetKey } from '../keys.ts';
import { createdNumber, present, reverseByAdding, reverseByRemoving } from '../undo/reversal.ts';
import { removing, type OpKindDefinition } from './definition.ts';

import { emailAddSchema, emailRemoveSchema } from './email.schema.ts';

const EMAIL = {
  featureTokenMaySend: false,
  changes: 'e-mail addresses',
  shows: 'emails',
} as const;

export const emailAdd: OpKindDefinition<'email.add', 'emails'> = {
  ...EMAIL,
  schema: emailAddSchema,
  effect: 'create',
  createdIdField: 'emailid',
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: () => null,
  undoRecordKey: (spec) => emailAddressKey(spec.userid, spec.email),
  overlay: (spec, _current, emailid) => ({
    record: { emailid, userid: spec.userid, email: spec.email, status: 'Active', isprimary: null },
    change: 'create',
  }),
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

export const emailRemove: OpKindDefinition<'email.remove', 'emails'> = {
  ...EMAIL,
  schema: emailRemoveSchema,
  effect: 'delete',
  createdIdField: null,
  targetKey: (spec, tempUserKey) => userTargetKey(spec.userid, tempUserKey),
  recordKey: (spec) => spec.emailid,
  undoRecordKey: (spec) => emailIdKey(spec.userid, spec.emailid),
  overlay: removing,
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
