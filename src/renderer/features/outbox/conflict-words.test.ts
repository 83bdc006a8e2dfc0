import { describe, expect, it } from 'vitest';
import { outboxOp } from '../../../shared/testing/test-ops.ts';
import { resolutionWords } from './conflict-words.ts';

const conflict = outboxOp(
  { kind: 'user.update', userid: 7, changes: { status: 'Inactive', firstname: 'Pria' } },
  {
    status: 'conflict',
    base: { status: 'Active', firstname: 'Priya' },
    theirs: { status: 'Offline', firstname: 'Priyanka' },
    conflictFields: ['status', 'firstname'],
  },
);
const what = 'Priya Costa';

describe('what resolving a conflict will do, in words', () => {
  it('asks for a choice on every field before anything can be sent', () => {
    expect(resolutionWords(conflict, { status: 'mine' }, what)).toMatchObject({
      ready: false,
      action: 'Choose yours or the server’s for each field (1 of 2 chosen)',
    });
  });

  it('names the fields as a person would, mine sent and the server’s kept', () => {
    const words = resolutionWords(conflict, { status: 'mine', firstname: 'theirs' }, what);
    expect(words).toMatchObject({ ready: true, action: 'Send the merged change' });
    expect(words.done).toBe(
      'Queued again: status “Inactive”; kept the server’s first name “Priyanka” (Priya Costa). It is sent if nobody changes these fields again first.',
    );
  });

  it('says when nothing is sent because every field stays as the server has it', () => {
    expect(resolutionWords(conflict, { status: 'theirs', firstname: 'theirs' }, what)).toMatchObject({
      action: 'Keep the server’s values',
      done: 'Kept the server’s status “Offline (never signed in)” and first name “Priyanka”: Priya Costa. Nothing is sent.',
    });
  });

  it('shows dates as dates', () => {
    const renewal = outboxOp(
      {
        kind: 'credentialAssignment.update',
        credentialid: 3,
        userid: 7,
        changes: { expirationdate: '2027-11-02' },
      },
      {
        status: 'conflict',
        base: { expirationdate: '2026-11-02' },
        theirs: { expirationdate: '2027-01-31' },
        conflictFields: ['expirationdate'],
      },
    );
    expect(resolutionWords(renewal, { expirationdate: 'theirs' }, what).done).toContain(
      'expiration date “Jan 31, 2027”',
    );
  });

  it('a removal is one choice: remove anyway, or keep the record', () => {
    const removal = outboxOp(
      { kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 },
      {
        status: 'conflict',
        base: { expirationdate: '2026-11-02' },
        theirs: { expirationdate: '2027-01-31' },
        conflictFields: ['expirationdate'],
      },
    );
    expect(resolutionWords(removal, { expirationdate: 'mine' }, what).action).toBe('Remove it anyway');
    expect(resolutionWords(removal, { expirationdate: 'theirs' }, what).action).toBe(
      'Keep it as the server has it',
    );
  });
});
