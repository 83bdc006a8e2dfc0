/**
 * Outbox operations in words, for people: "Assign Rigging to Barbara Adams,
 * Nov 2, 2026 – Nov 2, 2027", batches named by what they do ("Assign Rigging
 * to 15 people"). Pure over the names the cache knows (`OpNames`); an unknown
 * record is named by what it is ("a person not on this laptop"), never by its id
 * and never left out.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import { toIsoDate } from '../../../shared/dates.ts';
import { formatDate } from '../../app/format.ts';
import { fieldInSentence, NOT_ON_THIS_LAPTOP as NOT_HERE, ownedBy } from '../../app/words.ts';
import { moduleKey } from '../../../shared/keys.ts';

export interface OpNames {
  users: ReadonlyMap<number, string>;
  groups: ReadonlyMap<number, string>;
  /** by `${siteid}-${accessID}` */
  features: ReadonlyMap<string, string>;
  credentials: ReadonlyMap<number, string>;
  courses: ReadonlyMap<number, string>;
  /** a training assignment: whose, and which course */
  transcripts: ReadonlyMap<number, { userid: number; courseid: number }>;
  emails: ReadonlyMap<number, string>;
}

export const NO_NAMES: OpNames = {
  users: new Map(),
  groups: new Map(),
  features: new Map(),
  credentials: new Map(),
  courses: new Map(),
  transcripts: new Map(),
  emails: new Map(),
};

/** Fields edited with a date picker. */
export const DATE_FIELDS: ReadonlySet<string> = new Set(['startdate', 'expirationdate', 'duedate']);

function day(value: string | undefined): string {
  if (!value) return '';
  const iso = toIsoDate(value);
  return iso ? formatDate(iso) : value;
}

function span(start: string | undefined, end: string | undefined): string {
  if (!start && !end) return '';
  if (!end) return `, from ${day(start)}`;
  if (!start) return `, until ${day(end)}`;
  return `, ${day(start)} – ${day(end)}`;
}

/** A person created offline is named from their create op (the bound ops carry no id yet). */
function createdName(op: OutboxOp, all: ReadonlyMap<string, OutboxOp>): string | null {
  const from = op.bindings?.find((b) => b.field === 'userid');
  const create = from ? all.get(from.fromOp)?.op : undefined;
  return create?.kind === 'user.create'
    ? `${create.fields.firstname} ${create.fields.lastname}`.trim() || create.fields.username
    : null;
}

function personName(
  userid: number,
  names: OpNames,
  op: OutboxOp,
  all: ReadonlyMap<string, OutboxOp>,
): string {
  return names.users.get(userid) ?? createdName(op, all) ?? NOT_HERE.person;
}

/** The names of the records other than people, or what they are when the cache does not hold them. */
function recordNames(names: OpNames) {
  return {
    group: (groupid: number) => names.groups.get(groupid) ?? NOT_HERE.group,
    feature: (siteid: number, accessID: number) => {
      const name = names.features.get(moduleKey(siteid, accessID));
      return name ? `the feature ${name}` : NOT_HERE.feature;
    },
    credential: (credentialid: number) => names.credentials.get(credentialid) ?? NOT_HERE.credential,
    course: (courseid: number) => names.courses.get(courseid) ?? NOT_HERE.course,
    email: (emailid: number) => {
      const address = names.emails.get(emailid);
      return address ? `e-mail ${address}` : 'an e-mail address';
    },
  };
}

function changesInWords(changes: Record<string, string | undefined>): string {
  return Object.entries(changes)
    .filter(([, v]) => v !== undefined)
    .map(
      ([field, value]) =>
        `${fieldInSentence(field)} ${DATE_FIELDS.has(field) ? day(value) : field === 'password' ? '(hidden)' : `"${value}"`}`,
    )
    .join(', ');
}

/** One op in words. `all` (the outbox by id) names people created in the same batch. */
export function describeOp(
  op: OutboxOp,
  names: OpNames = NO_NAMES,
  all: ReadonlyMap<string, OutboxOp> = new Map(),
): string {
  // an op of an undo batch says so: "Undo: Change status "Active" of Ann Lee"
  return `${op.undoes ? 'Undo: ' : ''}${describeChange(op, names, all)}`;
}

function describeChange(op: OutboxOp, names: OpNames, all: ReadonlyMap<string, OutboxOp>): string {
  const spec = op.op;
  const person = (userid: number) => personName(userid, names, op, all);
  const named = recordNames(names);
  switch (spec.kind) {
    case 'user.create': {
      const f = spec.fields;
      return `Create ${`${f.firstname} ${f.lastname}`.trim()} (${f.username})${f.status ? `, ${f.status}` : ''}`;
    }
    case 'user.update':
      return `Change ${changesInWords(spec.changes)} of ${person(spec.userid)}`;
    case 'email.add':
      return `Add e-mail ${spec.email} to ${person(spec.userid)}`;
    case 'email.remove':
      return `Remove ${named.email(spec.emailid)} from ${person(spec.userid)}`;
    case 'groupAccess.grant':
      return `Give ${person(spec.userid)} access over ${named.group(spec.groupid)}`;
    case 'groupAccess.revoke':
      return `Take away ${ownedBy(person(spec.userid), 'access')} over ${named.group(spec.groupid)}`;
    case 'moduleAccess.grant':
      return `Give ${person(spec.userid)} ${named.feature(spec.siteid, spec.accessID)}`;
    case 'moduleAccess.revoke':
      return `Take away ${named.feature(spec.siteid, spec.accessID)} from ${person(spec.userid)}`;
    case 'credentialAssignment.create': {
      const dates = span(spec.fields.startdate, spec.fields.expirationdate);
      return `Assign ${named.credential(spec.credentialid)} to ${person(spec.userid)}${dates}`;
    }
    case 'credentialAssignment.update': {
      const whose = ownedBy(person(spec.userid), named.credential(spec.credentialid));
      return `Change ${changesInWords(spec.changes)} of ${whose}`;
    }
    case 'credentialAssignment.delete':
      return `Remove ${named.credential(spec.credentialid)} from ${person(spec.userid)}`;
    case 'trainingAssignment.create': {
      const due = spec.fields.duedate ? `, due ${day(spec.fields.duedate)}` : '';
      return `Assign ${named.course(spec.courseid)} to ${person(spec.userid)}${due}`;
    }
    case 'trainingAssignment.update':
    case 'trainingAssignment.delete': {
      const t = names.transcripts.get(spec.transcriptid);
      const what = t
        ? t.userid > 0
          ? ownedBy(person(t.userid), named.course(t.courseid))
          : named.course(t.courseid)
        : NOT_HERE.training;
      return spec.kind === 'trainingAssignment.delete'
        ? `Remove ${what}`
        : `Change ${changesInWords(spec.changes)} of ${what}`;
    }
  }
}

/** What an op does, without whom to: ops of one batch that share it read as one action on N people. */
function actionOf(op: OutboxOp, names: OpNames): string {
  const spec = op.op;
  const named = recordNames(names);
  switch (spec.kind) {
    case 'user.create':
      return 'Create';
    case 'user.update':
      return `Change ${changesInWords(spec.changes)} of`;
    case 'email.add':
      return 'Add an e-mail to';
    case 'email.remove':
      return 'Remove an e-mail from';
    case 'groupAccess.grant':
      return `Give access over ${named.group(spec.groupid)} to`;
    case 'groupAccess.revoke':
      return `Take away access over ${named.group(spec.groupid)} from`;
    case 'moduleAccess.grant':
      return `Give ${named.feature(spec.siteid, spec.accessID)} to`;
    case 'moduleAccess.revoke':
      return `Take away ${named.feature(spec.siteid, spec.accessID)} from`;
    case 'credentialAssignment.create':
      return `Assign ${named.credential(spec.credentialid)} to`;
    case 'credentialAssignment.update':
      return `Renew ${named.credential(spec.credentialid)} of`;
    case 'credentialAssignment.delete':
      return `Remove ${named.credential(spec.credentialid)} from`;
    case 'trainingAssignment.create':
      return `Assign ${named.course(spec.courseid)} to`;
    case 'trainingAssignment.update': {
      const t = names.transcripts.get(spec.transcriptid);
      return `Change ${changesInWords(spec.changes)} of ${t ? named.course(t.courseid) : 'training'} for`;
    }
    case 'trainingAssignment.delete': {
      const t = names.transcripts.get(spec.transcriptid);
      return `Remove ${t ? named.course(t.courseid) : 'training'} from`;
    }
  }
}

const people = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString()} people`);

/** "first name, last name": the fields an update changes, without their values. */
function fieldsInWords(changes: Record<string, string | undefined>): string {
  return Object.keys(changes)
    .filter((field) => changes[field] !== undefined)
    .map((field) => fieldInSentence(field))
    .join(', ');
}

/** What an op does, said without its values: an import's rows, each with values of its own, read as one action. */
function broadActionOf(op: OutboxOp, names: OpNames): string {
  const spec = op.op;
  const named = recordNames(names);
  if (spec.kind === 'user.update') return `Change ${fieldsInWords(spec.changes)} of`;
  if (spec.kind === 'trainingAssignment.update') {
    const t = names.transcripts.get(spec.transcriptid);
    return `Change ${fieldsInWords(spec.changes)} of ${t ? named.course(t.courseid) : 'training'} for`;
  }
  return actionOf(op, names);
}

/** Past this many parts a batch's name says the first ones and how many more. */
const MAX_PARTS = 3;

function partsOf(ops: readonly OutboxOp[], action: (op: OutboxOp) => string): Map<string, number> {
  const groups = new Map<string, number>();
  for (const op of ops) {
    const key = action(op);
    groups.set(key, (groups.get(key) ?? 0) + 1);
  }
  return groups;
}

/**
 * A batch named by what it does: one op in full; one action on many people
 * ("Assign Rigging to 15 people"); a mix (an import) by its parts
 * ("Create 3 people; Add an e-mail to 2 people"), values left out when every
 * row has its own, and never more than a few parts (a name stays one line).
 */
export function describeBatch(
  ops: readonly OutboxOp[],
  names: OpNames = NO_NAMES,
  all: ReadonlyMap<string, OutboxOp> = new Map(),
): string {
  if (ops.length === 0) return 'Empty batch';
  if (ops.length === 1) return describeOp(ops[0]!, names, all);
  let groups = partsOf(ops, (op) => actionOf(op, names));
  if (groups.size > MAX_PARTS) groups = partsOf(ops, (op) => broadActionOf(op, names));
  const parts = [...groups];
  const shown = parts.slice(0, MAX_PARTS).map(([action, n]) => `${action} ${people(n)}`);
  const rest = parts.slice(MAX_PARTS).reduce((sum, [, n]) => sum + n, 0);
  const words =
    shown.join('; ') +
    (rest > 0 ? `; and ${rest === 1 ? '1 other change' : `${rest.toLocaleString()} other changes`}` : '');
  return ops.every((op) => op.undoes) ? `Undo: ${words}` : words;
}
