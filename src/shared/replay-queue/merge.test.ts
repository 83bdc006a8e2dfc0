import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../outbox.ts';
import { allFields, mergeConflict } from './merge.ts';

/** Priya's first name and status changed by me (from Priya/Active), and by head office meanwhile. */
function conflict(over: Partial<OutboxOp> = {}): OutboxOp {
  return {
    id: 'op-1',
    batchId: 'b',
    seq: 1,
    targetKey: 'user:7',
    dependsOn: [],
    op: {
      kind: 'user.update',
      userid: 7,
      changes: { firstname: 'Pria', status: 'Inactive', lastname: 'Costa-Lee' },
    },
    base: { firstname: 'Priya', status: 'Active', lastname: 'Costa' },
    createdAt: '2026-11-20T08:00:00.000Z',
    status: 'conflict',
    attempts: 1,
    maybeSent: false,
    nextAttemptAt: null,
    lastError: null,
    response: null,
    theirs: { userid: 7, firstname: 'Priyanka', status: 'Offline', lastname: 'Costa', username: 'pcosta' },
    conflictFields: ['firstname', 'status'],
    summary: 'Priya Costa: first name, status, last name',
    ...over,
  };
}

describe('a conflict merged field by field', () => {
  it("sends my status with the server's first name: the first name leaves the change", () => {
    const merged = mergeConflict(conflict(), { firstname: 'theirs', status: 'mine' });
    expect(merged).toMatchObject({ send: true, keptTheirs: ['firstname'] });
    expect(merged.send && merged.op).toEqual({
      kind: 'user.update',
      userid: 7,
      changes: { status: 'Inactive', lastname: 'Costa-Lee' },
    });
  });

  it("checks what it sends against the server's values of the moment, not the values the edit was made from", () => {
    const merged = mergeConflict(conflict(), { firstname: 'theirs', status: 'mine' });
    // a further change of the status behind our back is a conflict again; the last name was not in conflict and is
    // checked too
    expect(merged.send && merged.base).toEqual({ status: 'Offline', lastname: 'Costa' });
  });

  it('"all mine" sends every change of mine, each field checked against the server\'s current value', () => {
    const op = conflict();
    const merged = mergeConflict(op, allFields(op, 'mine'));
    expect(merged.send && merged.op).toEqual(op.op);
    expect(merged.send && merged.base).toEqual({
      firstname: 'Priyanka',
      status: 'Offline',
      lastname: 'Costa',
    });
  });

  it('"all theirs" on a change whose every field is in conflict leaves nothing to send', () => {
    const op = conflict({
      op: { kind: 'user.update', userid: 7, changes: { firstname: 'Pria', status: 'Inactive' } },
    });
    expect(mergeConflict(op, allFields(op, 'theirs'))).toEqual({
      send: false,
      keptTheirs: ['firstname', 'status'],
    });
  });

  it('"all theirs" still sends my changes to fields nobody else touched', () => {
    const op = conflict();
    const merged = mergeConflict(op, allFields(op, 'theirs'));
    expect(merged.send && merged.op).toEqual({
      kind: 'user.update',
      userid: 7,
      changes: { lastname: 'Costa-Lee' },
    });
  });

  it('refuses to guess a field the user has not chosen', () => {
    expect(() => mergeConflict(conflict(), { firstname: 'mine' })).toThrow(/status/);
  });

  it('keeps the old base of a field the server did not report', () => {
    const merged = mergeConflict(conflict({ theirs: { firstname: 'Priyanka', status: 'Offline' } }), {
      firstname: 'mine',
      status: 'mine',
    });
    expect(merged.send && merged.base).toEqual({
      firstname: 'Priyanka',
      status: 'Offline',
      lastname: 'Costa',
    });
  });

  it("merges a credential renewal's dates the same way", () => {
    const op = conflict({
      targetKey: 'credentialAssignment:3-7',
      op: {
        kind: 'credentialAssignment.update',
        credentialid: 3,
        userid: 7,
        changes: { startdate: '2026-11-01', expirationdate: '2027-11-01' },
      },
      base: { startdate: '2025-11-01', expirationdate: '2026-11-01' },
      theirs: { startdate: '2025-11-01', expirationdate: '2027-01-31' },
      conflictFields: ['expirationdate'],
    });
    const merged = mergeConflict(op, { expirationdate: 'theirs' });
    expect(merged.send && merged.op).toEqual({
      kind: 'credentialAssignment.update',
      credentialid: 3,
      userid: 7,
      changes: { startdate: '2026-11-01' },
    });
    expect(merged.send && merged.base).toEqual({ startdate: '2025-11-01' });
  });

  it('a removal is all or nothing: kept, it is checked against the record as the server holds it now', () => {
    const removal = conflict({
      targetKey: 'credentialAssignment:3-7',
      op: { kind: 'credentialAssignment.delete', credentialid: 3, userid: 7 },
      base: { expirationdate: '2026-11-01' },
      theirs: { expirationdate: '2027-01-31', credentialnumber: 'X' },
      conflictFields: ['expirationdate'],
    });
    expect(mergeConflict(removal, { expirationdate: 'mine' })).toEqual({
      send: true,
      op: removal.op,
      base: { expirationdate: '2027-01-31' },
      keptTheirs: [],
    });
    expect(mergeConflict(removal, { expirationdate: 'theirs' })).toEqual({
      send: false,
      keptTheirs: ['expirationdate'],
    });
  });
});
