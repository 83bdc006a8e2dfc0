/**
 * An import planned against what the user will have after their queued changes: the file wins, and the preview says
 * which queued change it overrides.
 */
import { describe, expect, it } from 'vitest';
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { queuedCreates, queuedRemovals, replacedIdentities, type QueuedState } from './queued.ts';
import { queuedDeletions } from './queued-assignments.ts';
import { emailsByUser, planImport, type MatchOptions, type RowPlan, type RowValues } from './match.ts';
import { draftsOf, isQueued } from './rows.ts';
import { details, undoingNote } from './ImportPreview.tsx';
import { resultsTable } from './results.ts';
import { applyPendingToEmails, applyPendingToUsers } from '../../outbox/pending.ts';
import { outboxOp, statusOp } from '../../../shared/testing/test-ops.ts';

const ana: UserRecord = {
  userid: 7,
  siteid: 101,
  username: 'ana',
  firstname: 'Ana',
  lastname: 'Silva',
  employeeid: 'E7',
  status: 'Active',
  usertype: 'User',
  searchKeys: [],
  sortName: '',
};
const NONE = new Set<number>();

/**
 * The coordinator queued "Inactive" for Ana in bulk; the file is then planned against the effective state, as the view
 * does.
 */
const afterQueued = (values: RowValues, queued = [statusOp(7, 'Inactive')]) =>
  planImport([{ rowNumber: 2, values }], applyPendingToUsers([ana], queued), 101, emailsByUser([]), {
    key: 'username',
    mode: 'upsert',
  })[0]!;

describe('a row against the queued changes', () => {
  it('shows a row that sets a queued status back as overriding the queued change', () => {
    const row = afterQueued({ username: 'ana', status: 'Active' });
    expect(row).toMatchObject({ action: 'update', changes: { status: 'Active' }, undoes: ['status'] });
    expect(details(row)).toBe(
      'Ana Silva (ana, employee ID E7): Status: Inactive (your queued change) → Active',
    );
  });

  it("queues the file's value after the queued change (the file wins), unless the row is unticked", () => {
    const row = afterQueued({ username: 'ana', status: 'Active' });
    expect(isQueued(row, NONE, NONE)).toBe(true);
    expect(draftsOf([row], 101)).toMatchObject([
      { op: { kind: 'user.update', userid: 7, changes: { status: 'Active' } }, base: { status: 'Inactive' } },
    ]);
    expect(draftsOf([row], 101, new Set([2]))).toEqual([]);
  });

  it('leaves unchanged a row that agrees with the queued change (nothing is queued twice)', () => {
    expect(afterQueued({ username: 'ana', status: 'inactive' })).toMatchObject({ action: 'unchanged' });
  });

  it('marks only the fields the queued change set: a new last name alone is an ordinary update', () => {
    const row = afterQueued({ username: 'ana', lastname: 'Souza', status: 'Inactive' });
    expect(row).toMatchObject({ action: 'update', changes: { lastname: 'Souza' } });
    expect(row.action === 'update' && row.undoes).toBeUndefined();
    expect(isQueued(row, NONE, NONE)).toBe(true);
    expect(details(row)).toBe('Ana Silva (ana, employee ID E7): Last name: Silva → Souza');
  });

  it('ignores a change already sent (done): the cache holds it, the row is an ordinary update', () => {
    const row = afterQueued({ username: 'ana', status: 'Inactive' }, [
      statusOp(7, 'Inactive', { status: 'done' }),
    ]);
    expect(row).toMatchObject({ action: 'update', changes: { status: 'Inactive' } });
    expect(row.action === 'update' && row.undoes).toBeUndefined();
  });

  it('marks a queued name change the file would undo, next to one it would not', () => {
    const row = afterQueued({ username: 'ana', firstname: 'Ana', lastname: 'Souza' }, [
      outboxOp({ kind: 'user.update', userid: 7, changes: { firstname: 'Anabela' } }),
    ]);
    expect(row).toMatchObject({ undoes: ['firstname'] });
    expect(details(row)).toBe(
      'Anabela Silva (ana, employee ID E7): First name: Anabela (your queued change) → Ana; Last name: Silva → Souza',
    );
  });

  it('says above the rows how many override a queued change, and the results file says what an unticked one leaves', () => {
    expect(undoingNote(1)).toBe(
      '1 row overrides a change you queued (marked "your queued change"): the file\'s value is sent after it. Untick the row to keep your change instead.',
    );
    expect(undoingNote(3)).toBe(
      '3 rows override changes you queued (marked "your queued change"): the file\'s values are sent after them. Untick a row to keep your change instead.',
    );
    const row = afterQueued({ username: 'ana', status: 'Active' });
    const table = resultsTable(
      {
        fileName: 'f',
        headers: ['username', 'status'],
        rows: [{ rowNumber: 2, cells: ['ana', 'Active'] }],
        plans: new Map([[2, row]]),
        opsByRow: new Map(),
      },
      new Map(),
    );
    expect(table[1]).toEqual([
      'ana',
      'Active',
      'not queued',
      '',
      'Excluded from the import: the change you had queued goes ahead.',
    ]);
  });
});

/**
 * The file planned as the view plans it: the cached people and e-mails with the queued ops applied, and what the queue
 * replaces, removes or creates.
 */
function planAfter(
  values: RowValues,
  ops: OutboxOp[],
  options: Partial<MatchOptions> = {},
  people: UserRecord[] = [ana],
  mails: EmailRecord[] = [anaMail],
): RowPlan {
  const users = applyPendingToUsers(people, ops);
  const emails = applyPendingToEmails(mails, ops);
  const transcripts = new Map([[40, { userid: 7, courseid: 4 }]]);
  const queued: QueuedState = {
    removedEmails: queuedRemovals(emails),
    replaced: replacedIdentities(people, users),
    creates: queuedCreates(ops),
    deletions: queuedDeletions(ops, (id) => transcripts.get(id)),
  };
  return planImport([{ rowNumber: 2, values }], users, 101, emailsByUser(emails), {
    key: 'username',
    mode: 'upsert',
    queued,
    ...options,
  })[0]!;
}
const anaMail: EmailRecord = {
  emailid: 70,
  userid: 7,
  email: 'ana@example.com',
  status: 'Active',
  isprimary: null,
};
const bo: UserRecord = {
  ...ana,
  userid: 8,
  username: 'bo',
  firstname: 'Bo',
  lastname: 'Reis',
  employeeid: 'E8',
};

describe('a row against queued e-mail changes', () => {
  const removal = () => outboxOp({ kind: 'email.remove', userid: 7, emailid: 70 });

  it('adds back an e-mail the file lists that a queued change removes, instead of calling the row unchanged', () => {
    const row = planAfter({ username: 'ana', email: 'Ana@example.com' }, [removal()]);
    expect(row).toMatchObject({
      action: 'update',
      changes: {},
      emailAdded: 'Ana@example.com',
      undoes: ['email'],
    });
    expect(details(row)).toBe(
      'Ana Silva (ana, employee ID E7): add back e-mail Ana@example.com, which your queued change removes',
    );
    expect(isQueued(row, NONE, NONE)).toBe(true);
    expect(draftsOf([row], 101)).toMatchObject([
      { op: { kind: 'email.add', userid: 7, email: 'Ana@example.com' } },
    ]);
  });

  it('is unchanged when the same file is dropped again after its add-back was queued (queued once)', () => {
    const first = planAfter({ username: 'ana', email: 'ana@example.com' }, [removal()]);
    const queued = [removal(), ...draftsOf([first], 101).map((d) => outboxOp(d.op))];
    expect(planAfter({ username: 'ana', email: 'ana@example.com' }, queued)).toMatchObject({
      action: 'unchanged',
    });
  });

  it('leaves unchanged a row whose e-mail a queued change already adds (nothing is queued twice)', () => {
    expect(
      planAfter({ username: 'ana', email: 'ana.silva@example.com' }, [
        outboxOp({ kind: 'email.add', userid: 7, email: 'ana.silva@example.com' }),
      ]),
    ).toMatchObject({ action: 'unchanged' });
  });

  it('gives another person an address a queued change takes off Ana only once it is free (the add waits for the removal)', () => {
    const queued = [removal()];
    const row = planAfter({ username: 'bo', email: 'ana@example.com' }, queued, {}, [ana, bo]);
    expect(row).toMatchObject({ action: 'update', user: { userid: 8 }, emailAdded: 'ana@example.com' });
    expect(details(row)).toBe(
      'Bo Reis (bo, employee ID E8): add e-mail ana@example.com once your queued change has taken it off another person',
    );
    expect(draftsOf([row], 101)).toMatchObject([
      { op: { kind: 'email.add', userid: 8 }, dependsOn: [queued[0]!.id] },
    ]);
  });
});

describe('a row against a queued username or employee ID change', () => {
  const rename = () => outboxOp({ kind: 'user.update', userid: 7, changes: { username: 'anab' } });

  it('finds the person by the username a queued rename replaces, and sets it back (the file wins) instead of creating someone', () => {
    const row = planAfter({ username: 'ana', firstname: 'Ana', lastname: 'Silva' }, [rename()]);
    expect(row).toMatchObject({
      action: 'update',
      user: { userid: 7 },
      changes: { username: 'ana' },
      undoes: ['username'],
    });
    expect(details(row)).toBe('Ana Silva (anab, employee ID E7): Username: anab (your queued change) → ana');
    expect(draftsOf([row], 101)).toMatchObject([
      { op: { kind: 'user.update', userid: 7, changes: { username: 'ana' } }, base: { username: 'anab' } },
    ]);
  });

  it('finds the person by the employee ID a queued change replaces, and sets it back', () => {
    const row = planAfter(
      { employeeid: 'e7', status: 'Active' },
      [outboxOp({ kind: 'user.update', userid: 7, changes: { employeeid: 'E70' } })],
      { key: 'employeeid' },
    );
    expect(row).toMatchObject({
      action: 'update',
      user: { userid: 7 },
      changes: { employeeid: 'e7' },
      undoes: ['employeeid'],
    });
    expect(isQueued(row, NONE, NONE)).toBe(true);
  });

  it('does not give someone else a username a queued rename frees before the rename is sent', () => {
    const created = planAfter(
      { username: 'ana', employeeid: 'E9', firstname: 'Ana', lastname: 'Nova' },
      [rename()],
      { key: 'employeeid' },
      [ana, bo],
    );
    expect(created).toMatchObject({ action: 'conflict', people: [{ userid: 7 }] });
    expect(details(created)).toBe(
      'Your queued change takes the username "ana" off Ana Silva (anab, employee ID E7), but it is not sent yet: send the Outbox first, then drop the file again.',
    );
  });
});

describe('a row for a person only queued to be created', () => {
  const create = () =>
    outboxOp({
      kind: 'user.create',
      siteid: 101,
      fields: { username: 'cy', firstname: 'Cy', lastname: 'Ode', employeeid: 'E9' },
    });

  it('is unchanged when the file agrees with the queued person: never a second creation', () => {
    const row = planAfter({ username: 'cy', firstname: 'Cy', lastname: 'Ode', employeeid: 'E9' }, [create()]);
    expect(row).toMatchObject({ action: 'unchanged', user: { username: 'cy' } });
    expect(draftsOf([row], 101)).toEqual([]);
  });

  it("changes the queued person to the file's values, the ops waiting for the create and taking its new id", () => {
    const queued = create();
    const row = planAfter({ username: 'cy', firstname: 'Cyril', lastname: 'Ode', email: 'cy@example.com' }, [
      queued,
    ]);
    expect(row).toMatchObject({
      action: 'update',
      changes: { firstname: 'Cyril' },
      emailAdded: 'cy@example.com',
    });
    expect(details(row)).toBe(
      'Cy Ode (cy, employee ID E9), waiting in the Outbox to be created: First name: Cy → Cyril; add e-mail cy@example.com',
    );
    const bound = {
      targetKey: queued.targetKey,
      dependsOn: [queued.id],
      bindings: [{ fromOp: queued.id, field: 'userid' }],
    };
    expect(draftsOf([row], 101)).toMatchObject([
      { op: { kind: 'user.update', userid: 0, changes: { firstname: 'Cyril' } }, ...bound },
      { op: { kind: 'email.add', userid: 0, email: 'cy@example.com' }, ...bound },
    ]);
  });

  it('is skipped in create-only mode, saying the person is already waiting to be created', () => {
    expect(
      planAfter({ username: 'cy', firstname: 'Cyril', lastname: 'Ode' }, [create()], { mode: 'create' }),
    ).toMatchObject({
      action: 'skipped',
      reason:
        'Cy Ode (cy, employee ID E9) is already waiting in the Outbox to be created (create only: nobody is updated).',
    });
  });
});

describe('a row against a queued deletion of the credential or course the file gives', () => {
  const extras = {
    credential: {
      credentialid: 3,
      credentialname: 'Forklift licence',
      required: { startdate: true, expirationdate: false, credentialnumber: false },
      fields: { startdate: '2026-01-05' },
    },
    course: { courseid: 4, coursename: 'Fire safety', duedate: '2026-12-01' },
  };
  const deleteCredential = () =>
    outboxOp({ kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 });
  const deleteCourse = () => outboxOp({ kind: 'trainingAssignment.delete', transcriptid: 40 });

  it("keeps the credential a queued change deletes: assigned again after the deletion, with the file's values", () => {
    const deletion = deleteCredential();
    const row = planAfter({ username: 'ana', expirationdate: '2027-01-05' }, [deletion], { extras });
    expect(row).toMatchObject({ action: 'update', changes: {}, undoes: ['credential'] });
    expect(details(row)).toBe(
      "Ana Silva (ana, employee ID E7): keep the credential Forklift licence, which your queued change removes (assigned again after it, with the file's values)",
    );
    expect(isQueued(row, NONE, NONE)).toBe(true);
    expect(draftsOf([row], 101)).toMatchObject([
      {
        op: {
          kind: 'credentialAssignment.create',
          credentialid: 3,
          userid: 7,
          fields: { startdate: '2026-01-05', expirationdate: '2027-01-05' },
        },
        dependsOn: [deletion.id],
      },
    ]);
  });

  it('keeps the course a queued change deletes, due when the file says', () => {
    const deletion = deleteCourse();
    const row = planAfter({ username: 'ana' }, [deletion], { extras });
    expect(row).toMatchObject({ action: 'update', undoes: ['course'] });
    expect(details(row)).toContain(
      'keep the course Fire safety, which your queued change removes (assigned again after it, due ',
    );
    expect(draftsOf([row], 101)).toMatchObject([
      {
        op: { kind: 'trainingAssignment.create', userid: 7, courseid: 4, fields: { duedate: '2026-12-01' } },
        dependsOn: [deletion.id],
      },
    ]);
  });

  it('is unchanged when a later queued change assigns the credential again (the same file dropped twice queues it once)', () => {
    const deletion = deleteCredential();
    const again = outboxOp({
      kind: 'credentialAssignment.create',
      credentialid: 3,
      userid: 7,
      fields: { startdate: '2026-01-05' },
    });
    expect(
      planAfter({ username: 'ana' }, [deletion, again], { extras: { credential: extras.credential } }),
    ).toMatchObject({ action: 'unchanged' });
  });

  it('knows the course of a deleted transcript from the deletion itself when the cache lacks it', () => {
    const deletion = outboxOp(
      { kind: 'trainingAssignment.delete', transcriptid: 41 },
      { base: { userid: 7, courseid: 4 } },
    );
    expect(planAfter({ username: 'ana' }, [deletion], { extras })).toMatchObject({
      action: 'update',
      undoes: ['course'],
    });
  });

  it('leaves a queued deletion of another credential, or of a course the file does not give, alone', () => {
    expect(
      planAfter(
        { username: 'ana' },
        [outboxOp({ kind: 'credentialAssignment.delete', credentialid: 9, userid: 7 }), deleteCourse()],
        { extras: { credential: extras.credential } },
      ),
    ).toMatchObject({ action: 'unchanged' });
  });
});
