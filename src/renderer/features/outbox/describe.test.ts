import { describe, expect, it } from 'vitest';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { describeBatch, describeOp, type OpNames } from './describe.ts';
import { baseInWords, inputValue } from './OpDetails.tsx';
import { fieldInSentence, RAW_FIELD_NAMES } from '../../app/words.ts';

const names: OpNames = {
  users: new Map([
    [1, 'Barbara Adams'],
    [2, 'Carl Bell'],
  ]),
  groups: new Map([[10, 'Operations']]),
  features: new Map([['101-3', 'Reports — View']]),
  credentials: new Map([[7, 'Rigging']]),
  courses: new Map([[50, 'Fall protection']]),
  transcripts: new Map([[900, { userid: 2, courseid: 50 }]]),
  emails: new Map([[100, 'carl@example.test']]),
};

describe('outbox operations in words', () => {
  it('says a credential assignment with whom, what and the dates', () => {
    const op = outboxOp({
      kind: 'credentialAssignment.create',
      credentialid: 7,
      userid: 1,
      fields: { startdate: '2026-11-02', expirationdate: '11/02/2027' },
    });
    expect(describeOp(op, names)).toBe('Assign Rigging to Barbara Adams, Nov 2, 2026 – Nov 2, 2027');
  });

  it('names every kind by the records, not by ids', () => {
    const said = [
      outboxOp({ kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }),
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 10, userid: 2 }),
      outboxOp({ kind: 'moduleAccess.revoke', siteid: 101, accessID: 3, userid: 2 }),
      outboxOp({ kind: 'email.remove', userid: 2, emailid: 100 }),
      outboxOp({ kind: 'trainingAssignment.update', transcriptid: 900, changes: { duedate: '2026-06-01' } }),
      outboxOp({ kind: 'credentialAssignment.delete', credentialid: 7, userid: 1 }),
    ].map((op) => describeOp(op, names));
    expect(said).toEqual([
      'Change status "Inactive" of Barbara Adams',
      'Give Carl Bell access over Operations',
      'Take away the feature Reports — View from Carl Bell',
      'Remove e-mail carl@example.test from Carl Bell',
      "Change due date Jun 1, 2026 of Carl Bell's Fall protection",
      'Remove Rigging from Barbara Adams',
    ]);
  });

  it('names a person created in the same batch in the ops waiting for their id', () => {
    const create = outboxOp({
      kind: 'user.create',
      siteid: 101,
      fields: { username: 'dora', firstname: 'Dora', lastname: 'Diaz' },
    });
    const email = outboxOp(
      { kind: 'email.add', userid: 0, email: 'dora@example.test' },
      { bindings: [{ fromOp: create.id, field: 'userid' }] },
    );
    expect(describeOp(email, names, new Map([[create.id, create]]))).toBe(
      'Add e-mail dora@example.test to Dora Diaz',
    );
  });

  it("shows what a removal was made from without the record's internal ids", () => {
    expect(baseInWords({ userid: 10054, courseid: 700, duedate: '2026-06-01' })).toBe('Due date: 2026-06-01');
  });

  it('names a record the cache does not know by what it is, never by its id', () => {
    const said = [
      outboxOp({ kind: 'groupAccess.grant', siteid: 101, groupid: 99, userid: 5 }),
      outboxOp({ kind: 'moduleAccess.grant', siteid: 101, accessID: 9, userid: 1 }),
      outboxOp({ kind: 'email.remove', userid: 1, emailid: 999 }),
      outboxOp({ kind: 'credentialAssignment.create', credentialid: 99, userid: 1, fields: {} }),
      outboxOp({ kind: 'trainingAssignment.create', courseid: 99, userid: 1, fields: {} }),
      outboxOp({ kind: 'trainingAssignment.delete', transcriptid: 1003010 }),
    ].map((op) => describeOp(op, names));
    expect(said).toEqual([
      'Give a person not on this laptop access over a group not on this laptop',
      'Give Barbara Adams a feature not on this laptop',
      'Remove an e-mail address from Barbara Adams',
      'Assign a credential not on this laptop to Barbara Adams',
      'Assign a course not on this laptop to Barbara Adams',
      'Remove a training assignment not on this laptop',
    ]);
    expect(said.join(' ')).not.toMatch(/\d/);
  });
});

describe('batches named by what they do', () => {
  it('names one action on many people by the action and the count', () => {
    const ops = Array.from({ length: 15 }, (_, i) =>
      outboxOp({ kind: 'credentialAssignment.create', credentialid: 7, userid: i + 1, fields: {} }),
    );
    expect(describeBatch(ops, names)).toBe('Assign Rigging to 15 people');
  });

  it('names an import by its parts', () => {
    const ops = [
      outboxOp({
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'a', firstname: 'A', lastname: 'A' },
      }),
      outboxOp({
        kind: 'user.create',
        siteid: 101,
        fields: { username: 'b', firstname: 'B', lastname: 'B' },
      }),
      outboxOp({ kind: 'email.add', userid: 1, email: 'x@example.test' }),
    ];
    expect(describeBatch(ops, names)).toBe('Create 2 people; Add an e-mail to 1 person');
  });

  it('names a batch of one by the op itself', () => {
    expect(
      describeBatch([outboxOp({ kind: 'credentialAssignment.delete', credentialid: 7, userid: 1 })], names),
    ).toBe('Remove Rigging from Barbara Adams');
  });
});

describe('an undo batch says it is one', () => {
  const undo = (userid: number) =>
    outboxOp({ kind: 'user.update', userid, changes: { status: 'Active' } }, { undoes: 'b-applied' });

  it('marks each of its ops', () => {
    expect(describeOp(undo(1), names)).toBe('Undo: Change status "Active" of Barbara Adams');
  });

  it('marks the batch', () => {
    expect(describeBatch([undo(1), undo(2)], names)).toMatch(/^Undo: /);
  });
});

describe('editing dates with a date picker', () => {
  it('gives the picker the date whatever way it was typed, and other fields as they are', () => {
    expect(inputValue('expirationdate', '11/02/2027')).toBe('2027-11-02');
    expect(inputValue('credentialnumber', '11/02/2027')).toBe('11/02/2027');
  });
});

describe('a batch of rows that each change their own values', () => {
  it('is named by what it changes, without the values, and never by more than three parts', () => {
    const rows = Array.from({ length: 48 }, (_, i) =>
      outboxOp({
        kind: 'user.update',
        userid: i + 1,
        changes: { firstname: `Name${i}`, lastname: `Last${i}` },
      }),
    );
    expect(describeBatch(rows)).toBe('Change first name, last name of 48 people');
    const mixed = [
      ...rows.slice(0, 3),
      outboxOp({ kind: 'user.update', userid: 90, changes: { status: 'Inactive' } }),
      outboxOp({ kind: 'user.update', userid: 91, changes: { employeeid: '007' } }),
      outboxOp({ kind: 'email.add', userid: 92, email: 'a@example.test' }),
      outboxOp({ kind: 'groupAccess.grant', siteid: 1, groupid: 5, userid: 93 }),
    ];
    expect(describeBatch(mixed)).toBe(
      'Change first name, last name of 3 people; Change status of 1 person; Change employee ID of 1 person; and 2 other changes',
    );
  });
});

describe('no API field name in what the Outbox says', () => {
  it('names every field an update can change in words', () => {
    const raw = RAW_FIELD_NAMES.filter((f) => fieldInSentence(f) !== f);
    const all = (fields: readonly string[]) => Object.fromEntries(fields.map((f) => [f, 'x']));
    const ops = [
      outboxOp({
        kind: 'user.update',
        userid: 1,
        changes: all(['firstname', 'lastname', 'username', 'employeeid', 'status']),
      }),
      outboxOp({
        kind: 'credentialAssignment.update',
        credentialid: 7,
        userid: 1,
        changes: all(['startdate', 'expirationdate', 'credentialnumber', 'notes']),
      }),
      outboxOp({
        kind: 'trainingAssignment.update',
        transcriptid: 3,
        changes: all(['duedate', 'startdate', 'coursestatus']),
      }),
    ];
    const said = [...ops.map((op) => describeOp(op)), describeBatch(ops)].join('\n');
    expect(raw.filter((f) => new RegExp(`\\b${f}\\b`).test(said))).toEqual([]);
  });
});
