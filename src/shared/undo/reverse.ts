/**
 * Undo after apply, per op kind: the op that puts a done op's record back,
 * built from the op's before-image (the base values it recorded, the id the
 * server gave a create), and what the record looked like before the op and
 * right after it (what the undo restores, and what it expects to find). Pure.
 *
 * What the API cannot reverse is said, never guessed: a person cannot be
 * deleted (the offer: set them Inactive), and a change whose before-image was
 * not recorded cannot be put back.
 */
import type { OpSpec } from '../ipc.ts';
import type { BaseValues, OutboxOp } from '../outbox.ts';
import { OP_KIND_TABLE } from '../op-kinds.ts';

export type ShapeValue = string | number | boolean | null;

/** A record as expected at one moment: absent, or present with (at least) these field values (in the op's field names). */
export interface Shape {
  present: boolean;
  fields: Record<string, ShapeValue>;
}

export interface ReversalStep {
  /** the op that puts the record back */
  op: OpSpec;
  /** what the apply left: the replay's conflict rule checks the server still holds it before sending */
  base: BaseValues;
  summary: string;
  /** the record before the batch's op (what the undo restores) */
  before: Shape;
  /** the record right after the batch's op (what the undo expects to find) */
  applied: Shape;
  /** what this reversal does not bring back (the API cannot) */
  caveat?: string;
}

export type Reversal =
  | { kind: 'reverse'; step: ReversalStep }
  | {
      kind: 'irreversible';
      reason: string;
      /** a partial remedy the user may choose instead (a created person set Inactive) */
      offer?: ReversalStep & { label: string };
    };

const ABSENT: Shape = { present: false, fields: {} };
const present = (fields: Record<string, ShapeValue> = {}): Shape => ({ present: true, fields });

const PERSON_CANNOT_BE_DELETED = 'A person cannot be deleted through the API: they stay on the site.';

/** The fields of a credential assignment a removal records, so an undo can re-create it as it was. */
const ASSIGNMENT_IMAGE_FIELDS = ['startdate', 'expirationdate', 'credentialnumber', 'notes'] as const;

function createdNumber(op: OutboxOp): number | null {
  const id = typeof op.createdId === 'number' ? op.createdId : Number(op.createdId);
  return op.createdId !== null && op.createdId !== undefined && Number.isInteger(id) && id > 0 ? id : null;
}

function text(value: ShapeValue | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}

/** Only the fields given (an optional field absent stays absent). */
function defined(fields: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) out[field] = value;
  return out;
}

/** An update is put back field by field from its base; a field changed without a base cannot be. */
function reverseUpdate(
  op: OutboxOp,
  changes: Record<string, string | undefined>,
  make: (restore: Record<string, string>) => OpSpec,
): Reversal {
  const applied = defined(changes);
  const missing = Object.keys(applied).filter((field) => !(field in op.base));
  if (missing.length > 0)
    return {
      kind: 'irreversible',
      reason: `No before-image of ${missing.join(', ')} was recorded, so it cannot be put back.`,
    };
  const restore: Record<string, string> = {};
  for (const field of Object.keys(applied)) restore[field] = text(op.base[field]);
  return {
    kind: 'reverse',
    step: {
      op: make(restore),
      base: { ...applied },
      summary: `Undo: ${op.summary}`,
      before: present(restore),
      applied: present(applied),
    },
  };
}

/**
 * A removal that undoes a create carries what the create left as its base: the replay
 * sends it only while the server still holds that (an assignment renewed or moved by
 * someone since is a conflict, also when the undo was checked against the cache offline).
 */
function step(op: OutboxOp, spec: OpSpec, before: Shape, applied: Shape, caveat?: string): Reversal {
  const base: BaseValues = OP_KIND_TABLE[spec.kind].effect === 'delete' ? { ...applied.fields } : {};
  return {
    kind: 'reverse',
    step: { op: spec, base, summary: `Undo: ${op.summary}`, before, applied, ...(caveat ? { caveat } : {}) },
  };
}

// eslint-disable-next-line max-lines-per-function -- over 80 lines once Prettier unpacked it: to be split into named steps (issue 36)
export function reverseOp(op: OutboxOp): Reversal {
  const spec = op.op;
  switch (spec.kind) {
    case 'user.update':
      return reverseUpdate(op, spec.changes, (changes) => ({
        kind: 'user.update',
        userid: spec.userid,
        changes,
      }));
    case 'credentialAssignment.update':
      return reverseUpdate(op, spec.changes, (changes) => ({
        kind: 'credentialAssignment.update',
        credentialid: spec.credentialid,
        userid: spec.userid,
        changes,
      }));
    case 'trainingAssignment.update':
      return reverseUpdate(op, spec.changes, (changes) => ({
        kind: 'trainingAssignment.update',
        transcriptid: spec.transcriptid,
        changes,
      }));

    case 'user.create': {
      const userid = createdNumber(op);
      if (userid === null)
        return {
          kind: 'irreversible',
          reason: `${PERSON_CANNOT_BE_DELETED} Their new id was not recorded, so they cannot be set Inactive from here either.`,
        };
      const status = spec.fields.status;
      const applied: Record<string, string> = status ? { status } : { username: spec.fields.username };
      return {
        kind: 'irreversible',
        reason: `${PERSON_CANNOT_BE_DELETED} They can be set Inactive instead.`,
        offer: {
          label: 'Set Inactive instead',
          op: { kind: 'user.update', userid, changes: { status: 'Inactive' } },
          base: status ? { status } : {},
          summary: `Undo: ${op.summary}: set Inactive (a person cannot be deleted)`,
          before: present({ status: 'Inactive' }),
          applied: present(applied),
        },
      };
    }

    case 'email.add': {
      const emailid = createdNumber(op);
      if (emailid === null)
        return {
          kind: 'irreversible',
          reason: "The new e-mail's id was not recorded, so it cannot be removed from here.",
        };
      return step(
        op,
        { kind: 'email.remove', userid: spec.userid, emailid },
        ABSENT,
        present({ email: spec.email }),
      );
    }
    case 'email.remove': {
      const email = op.base['email'];
      if (typeof email !== 'string' || email === '')
        return {
          kind: 'irreversible',
          reason: 'The removed address was not recorded, so it cannot be added back.',
        };
      return step(op, { kind: 'email.add', userid: spec.userid, email }, present({ email }), ABSENT);
    }

    case 'groupAccess.grant':
      return step(op, { ...spec, kind: 'groupAccess.revoke' }, ABSENT, present());
    case 'groupAccess.revoke':
      return step(op, { ...spec, kind: 'groupAccess.grant' }, present(), ABSENT);
    case 'moduleAccess.grant':
      return step(op, { ...spec, kind: 'moduleAccess.revoke' }, ABSENT, present());
    case 'moduleAccess.revoke':
      return step(op, { ...spec, kind: 'moduleAccess.grant' }, present(), ABSENT);

    case 'credentialAssignment.create':
      return step(
        op,
        { kind: 'credentialAssignment.delete', credentialid: spec.credentialid, userid: spec.userid },
        ABSENT,
        present(defined(spec.fields)),
      );
    case 'credentialAssignment.delete': {
      if (!ASSIGNMENT_IMAGE_FIELDS.some((field) => field in op.base)) {
        return {
          kind: 'irreversible',
          reason:
            'Its dates and number were not recorded when it was removed, so it cannot be re-created as it was.',
        };
      }
      const fields: Record<string, string> = {};
      for (const field of ASSIGNMENT_IMAGE_FIELDS)
        if (text(op.base[field]) !== '') fields[field] = text(op.base[field]);
      return step(
        op,
        { kind: 'credentialAssignment.create', credentialid: spec.credentialid, userid: spec.userid, fields },
        present(fields),
        ABSENT,
        'Attachments of the removed assignment are not restored.',
      );
    }

    case 'trainingAssignment.create': {
      const transcriptid = createdNumber(op);
      if (transcriptid === null)
        return {
          kind: 'irreversible',
          reason: "The new assignment's id was not recorded, so it cannot be removed from here.",
        };
      return step(
        op,
        { kind: 'trainingAssignment.delete', transcriptid },
        ABSENT,
        present(defined({ duedate: spec.fields.duedate })),
      );
    }
    case 'trainingAssignment.delete': {
      const userid = op.base['userid'];
      const courseid = op.base['courseid'];
      if (typeof userid !== 'number' || typeof courseid !== 'number') {
        return {
          kind: 'irreversible',
          reason: 'Whose assignment of which course it was was not recorded, so it cannot be assigned again.',
        };
      }
      const fields = defined({
        duedate: op.base['duedate'] ? text(op.base['duedate']) : undefined,
        startdate: op.base['startdate'] ? text(op.base['startdate']) : undefined,
      });
      return step(
        op,
        { kind: 'trainingAssignment.create', userid, courseid, fields },
        present(),
        ABSENT,
        'A new assignment: the progress of the removed one is not restored.',
      );
    }
  }
}
