import { describe, expect, it } from 'vitest';
import type { OpSpec } from '../../../shared/ipc.ts';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { reverseOp } from '../../../shared/undo/reverse.ts';
import { NO_NAMES, type OpNames } from '../outbox/describe.ts';
import {
  checkButtonText,
  checkedFound,
  checkedWhere,
  compareWords,
  queueButtonText,
  recordNowWords,
  STAYS_AS_IT_IS,
  UNDO_LIKE_ANY_BATCH,
  undoStepWords,
} from './words.ts';

const names: OpNames = {
  ...NO_NAMES,
  users: new Map([[7, 'Priya Costa']]),
  credentials: new Map([[3, 'Rigging']]),
};

function stepOf(op: ReturnType<typeof outboxOp>) {
  const reversal = reverseOp(op);
  if (reversal.kind !== 'reverse') throw new Error('expected a reversal');
  return reversal.step;
}

describe('the undo preview says what the undo will do', () => {
  it("reads in the undo's direction: undoing Active → Inactive sets Inactive → Active", () => {
    const done = outboxOp(
      { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } },
      { status: 'done', base: { status: 'Active' } },
    );
    expect(undoStepWords(stepOf(done), names, done)).toBe('Priya Costa: status Inactive → Active');
  });

  it('names each field as a person would, dates as dates', () => {
    const done = outboxOp(
      {
        kind: 'credentialAssignment.update',
        credentialid: 3,
        userid: 7,
        changes: { expirationdate: '2027-11-02', credentialnumber: 'R-2' },
      },
      { status: 'done', base: { expirationdate: '2026-11-02', credentialnumber: 'R-1' } },
    );
    expect(undoStepWords(stepOf(done), names, done)).toBe(
      "Priya Costa's Rigging: expiration date Nov 2, 2027 → Nov 2, 2026, credential number R-2 → R-1",
    );
  });

  it('says the offer for a person created without a status as setting it, never "status — → Inactive"', () => {
    const created = outboxOp(
      { kind: 'user.create', siteid: 1, fields: { username: 'ann.lee', firstname: 'Ann', lastname: 'Lee' } },
      { status: 'done', createdId: 7 },
    );
    const reversal = reverseOp(created);
    if (reversal.kind !== 'irreversible' || !reversal.offer) throw new Error('expected an offer');
    expect(undoStepWords(reversal.offer, names, created)).toBe('Priya Costa: set status to Inactive');
  });

  it('says a reversal that is not an update as the op it sends', () => {
    const done = outboxOp(
      {
        kind: 'credentialAssignment.create',
        credentialid: 3,
        userid: 7,
        fields: { startdate: '2026-11-02' },
      },
      { status: 'done', undoes: 'earlier' },
    );
    expect(undoStepWords(stepOf(done), names, done)).toBe('Remove Rigging from Priya Costa');
  });

  it('compares before / after the batch / now in words', () => {
    expect(compareWords({ field: 'status', base: 'Active', applied: 'Inactive', now: 'Expired' })).toBe(
      'Status: before Active, after the batch Inactive, now Expired',
    );
    expect(compareWords({ field: 'record', base: 'absent', applied: 'present', now: 'absent' })).toBe(
      'Record: before not there, after the batch there, now not there',
    );
  });

  it("says a person's status Offline with its meaning, never as this laptop being offline", () => {
    const person = { kind: 'user.update', userid: 7, changes: { status: 'Inactive' } } as const;
    const card: OpSpec = {
      kind: 'credentialAssignment.update',
      credentialid: 5,
      userid: 7,
      changes: { status: 'Offline' },
    };
    const offline = { field: 'status', base: 'Active', applied: 'Inactive', now: 'Offline' };
    expect(compareWords(offline, person)).toBe(
      'Status: before Active, after the batch Inactive, now Offline (never signed in)',
    );
    // another record's status is its own word
    expect(compareWords(offline, card)).toBe('Status: before Active, after the batch Inactive, now Offline');
  });
});

describe("the undo's main button", () => {
  const state = { online: true, checking: false, checked: true, changes: 3, queued: null };

  it('says what it waits for before the check has answered, never "0 changes"', () => {
    expect(queueButtonText({ ...state, checking: true, checked: false, changes: 0 })).toBe(
      'Checking with the platform…',
    );
    expect(queueButtonText({ ...state, online: false, checking: true, checked: false, changes: 0 })).toBe(
      'Checking the copy on this laptop…',
    );
    expect(queueButtonText({ ...state, checked: false, changes: 0 })).toBe('Check the records first');
  });

  it('says how many changes it will queue, or that there is nothing to undo', () => {
    expect(queueButtonText(state)).toBe('Queue the undo (3 changes)');
    expect(queueButtonText({ ...state, changes: 1 })).toBe('Queue the undo (1 change)');
    expect(queueButtonText({ ...state, changes: 0 })).toBe('Nothing to undo');
  });

  it('says it is done once queued', () => {
    expect(queueButtonText({ ...state, queued: 3 })).toBe('Undo queued (3 changes)');
  });
});

describe("where the undo checked the records, in the coordinator's words", () => {
  const all = [
    checkedWhere(true, '8:17 AM'),
    checkedWhere(false, '8:17 AM'),
    checkButtonText(true, false),
    checkButtonText(true, true),
    checkButtonText(false, true),
    UNDO_LIKE_ANY_BATCH,
  ];

  it('says the platform online and the copy on this laptop offline', () => {
    expect(checkedWhere(true, '8:17 AM')).toBe('Checked with the platform (8:17 AM)');
    expect(checkedWhere(false, '8:17 AM')).toContain('checked against the copy on this laptop (8:17 AM)');
    expect(checkButtonText(true, true)).toBe('Check again with the platform');
    expect(checkButtonText(false, false)).toBe('Check the records against the copy on this laptop (offline)');
  });

  it('says what happens to the queued undo instead of "verified and logged"', () => {
    expect(UNDO_LIKE_ANY_BATCH).toContain('read back to confirm the change took');
  });

  it('never says server, API, cache, verified or logged', () => {
    for (const text of all) expect(text).not.toMatch(/\b(server|API|cache|verified|logged)\b/i);
  });
});

describe('what checking the records found', () => {
  const none = { revert: 0, already: 0, conflict: 0, irreversible: 0, notApplied: 0, unknown: 0 };

  it('says only the parts that count something', () => {
    expect(checkedFound({ ...none, revert: 2, irreversible: 2 })).toBe(
      '2 to revert, 2 the platform cannot reverse.',
    );
    expect(checkedFound({ ...none, revert: 39, conflict: 1 })).toBe(
      '39 to revert, 1 changed since (not reverted unless you choose).',
    );
  });

  it('says the records it could not check last', () => {
    expect(checkedFound({ ...none, already: 1, notApplied: 2, unknown: 3 })).toBe(
      '1 already as before, 2 never applied, 3 could not be checked.',
    );
  });

  it('says there is nothing to undo when it found nothing', () => {
    expect(checkedFound(none)).toBe('Nothing to undo.');
  });
});

describe('what the preview says a record will do', () => {
  it('says a change the platform cannot undo stays as it is, not that it will be put back', () => {
    expect(recordNowWords('revert', true, false)).toBe(STAYS_AS_IT_IS);
    expect(STAYS_AS_IT_IS).toBe('Stays as it is: the platform cannot undo this');
  });

  it('says the record gets the change offered instead once that offer is chosen, not that it is put back', () => {
    expect(recordNowWords('revert', true, true)).toBe('Will get the change offered instead');
    expect(recordNowWords('conflict', true, true)).toBe('Changed since the batch was applied');
  });

  it('says what checking found for a change the undo reverses', () => {
    expect(recordNowWords('revert', false, false)).toBe('Will be put back');
    expect(recordNowWords('conflict', false, false)).toBe('Changed since the batch was applied');
    expect(recordNowWords(null, false, false)).toBe('Not on this laptop: cannot be checked offline');
  });
});
