/**
 * Outbox operations in words, for people: "Assign Rigging to Barbara Adams,
 * Nov 2, 2026 – Nov 2, 2027", batches named by what they do ("Assign Rigging
 * to 15 people"). Pure over the names the cache knows (`OpNames`); an unknown
 * record is named by what it is ("a person not on this laptop"), never by its id
 * and never left out. Each kind's words are in the module of its record
 * (src/renderer/op-kinds/), looked up here.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';
import { moduleKey } from '../../../shared/keys.ts';
import { rendererKindOf } from '../../op-kinds.ts';
import type { Named } from '../../op-kinds/definition.ts';

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

/** The names of the records an op names, or what they are when the cache does not hold them. */
export function namesFor(op: OutboxOp, names: OpNames, all: ReadonlyMap<string, OutboxOp>): Named {
  return {
    person: (userid) => personName(userid, names, op, all),
    group: (groupid) => names.groups.get(groupid) ?? NOT_HERE.group,
    feature: (siteid, accessID) => {
      const name = names.features.get(moduleKey(siteid, accessID));
      return name ? `the feature ${name}` : NOT_HERE.feature;
    },
    credential: (credentialid) => names.credentials.get(credentialid) ?? NOT_HERE.credential,
    course: (courseid) => names.courses.get(courseid) ?? NOT_HERE.course,
    email: (emailid) => {
      const address = names.emails.get(emailid);
      return address ? `e-mail ${address}` : 'an e-mail address';
    },
    transcript: (transcriptid) => names.transcripts.get(transcriptid),
  };
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
  return rendererKindOf(op.op).describe(op.op, namesFor(op, names, all));
}

/** What an op does, without whom to: ops of one batch that share it read as one action on N people. */
function actionOf(op: OutboxOp, names: OpNames): string {
  return rendererKindOf(op.op).action(op.op, namesFor(op, names, new Map()));
}

/** What an op does, said without its values: an import's rows, each with values of its own, read as one action. */
function broadActionOf(op: OutboxOp, names: OpNames): string {
  const kind = rendererKindOf(op.op);
  return (kind.broadAction ?? kind.action)(op.op, namesFor(op, names, new Map()));
}

const people = (n: number) => (n === 1 ? '1 person' : `${n.toLocaleString()} people`);

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
