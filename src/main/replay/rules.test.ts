import { describe, expect, it } from 'vitest';
import { alreadyInEffect, classifyFailure, conflictingFields, sameCreatedUser, sameValue } from './rules.ts';

describe('classifying a failed replay', () => {
  it('retries network errors, timeouts, 5xx, 1006 and 429', () => {
    expect(classifyFailure({ code: 'network', message: '' })).toBe('retry');
    expect(classifyFailure({ code: 'timeout', message: '' })).toBe('retry');
    expect(classifyFailure({ code: 'server', message: '', httpcode: 500 })).toBe('retry');
    expect(classifyFailure({ code: 'server', message: '', httpcode: 503, statuscode: 1006 })).toBe('retry');
    expect(classifyFailure({ code: 'rate-limited', message: '', httpcode: 429 })).toBe('retry');
  });

  it('parks validation failures and access denied on the record for review', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 400, statuscode: 1000 })).toBe(
      'needs-review',
    );
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 400, statuscode: 1001 })).toBe(
      'needs-review',
    );
    expect(classifyFailure({ code: 'access-denied', message: '', httpcode: 401, statuscode: 800 })).toBe(
      'needs-review',
    );
  });

  it('pauses the whole queue when the token is missing or rejected', () => {
    expect(classifyFailure({ code: 'token-missing', message: '', httpcode: 401, statuscode: 801 })).toBe(
      'paused',
    );
    expect(classifyFailure({ code: 'token-rejected', message: '', httpcode: 401, statuscode: 802 })).toBe(
      'paused',
    );
  });
});

describe('each branch of the classification on its own (the error code alone would not decide)', () => {
  // code 'rejected' would mean needs-review: only the one field under test can change the answer
  it('retries 1006 (external system unavailable) even on a 2xx answer', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 200, statuscode: 1006 })).toBe('retry');
  });

  it('pauses on status code 801 (no token)', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 401, statuscode: 801 })).toBe('paused');
  });

  it('pauses on status code 802 (token not known)', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 401, statuscode: 802 })).toBe('paused');
  });

  it.each([500, 502, 503, 504])('retries HTTP %i without a status body', (httpcode) => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode })).toBe('retry');
  });

  it('retries HTTP 429', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 429 })).toBe('retry');
  });

  it('retries (later, verifying first) when something other than the API answered a write: a sign-in page or a redirect', () => {
    expect(classifyFailure({ code: 'not-the-api', message: '', httpcode: 302 })).toBe('retry');
    expect(classifyFailure({ code: 'not-the-api', message: '', httpcode: 200 })).toBe('retry');
  });

  it('parks a 4xx that is none of these for review', () => {
    expect(classifyFailure({ code: 'rejected', message: '', httpcode: 400 })).toBe('needs-review');
  });
});

describe('the conflict rule', () => {
  it('is a conflict when the server changed a field the edit changes', () => {
    expect(conflictingFields({ status: 'Active' }, { status: 'Inactive' }, { status: 'Offline' })).toEqual([
      'status',
    ]);
  });

  it('is no conflict when the server still holds the base value', () => {
    expect(conflictingFields({ status: 'Active' }, { status: 'Inactive' }, { status: 'Active' })).toEqual([]);
  });

  it('is no conflict when the server already holds my value', () => {
    expect(conflictingFields({ status: 'Active' }, { status: 'Inactive' }, { status: 'Inactive' })).toEqual(
      [],
    );
  });

  it('ignores fields the edit does not change, even if the server changed them', () => {
    expect(
      conflictingFields(
        { status: 'Active', firstname: 'Ann' },
        { status: 'Inactive' },
        { status: 'Active', firstname: 'Anna' },
      ),
    ).toEqual([]);
  });

  it('compares dates by day whatever their format', () => {
    expect(
      conflictingFields(
        { expirationdate: '03/01/2027' },
        { expirationdate: '2028-01-01' },
        { expirationdate: '2027-03-01' },
      ),
    ).toEqual([]);
    expect(sameValue('startdate', '03/01/2027', '2027-03-01')).toBe(true);
  });

  it('treats status values without regard to case', () => {
    expect(sameValue('status', 'Inactive', 'inactive')).toBe(true);
    expect(sameValue('firstname', 'ann', 'Ann')).toBe(false);
  });
});

describe('the verification rule', () => {
  it('sees an update as in effect when the server holds every changed value', () => {
    expect(
      alreadyInEffect(
        { status: 'Inactive', firstname: 'Al' },
        { status: 'Inactive', firstname: 'Al', lastname: 'X' },
      ),
    ).toBe(true);
    expect(
      alreadyInEffect({ status: 'Inactive', firstname: 'Al' }, { status: 'Inactive', firstname: 'Alan' }),
    ).toBe(false);
  });

  it('recognises a created user by name and employee id', () => {
    expect(
      sameCreatedUser(
        { firstname: 'Ann', lastname: 'Lee', employeeid: 'E1' },
        { firstname: 'Ann', lastname: 'Lee', employeeid: 'E1' },
      ),
    ).toBe(true);
    expect(
      sameCreatedUser(
        { firstname: 'Ann', lastname: 'Lee', employeeid: 'E1' },
        { firstname: 'Ann', lastname: 'Lee', employeeid: 'E2' },
      ),
    ).toBe(false);
    expect(
      sameCreatedUser({ firstname: 'Ann', lastname: 'Lee' }, { firstname: 'Bob', lastname: 'Lee' }),
    ).toBe(false);
  });

  it('does not take a person of another last name for the one created (their edits would go to someone else)', () => {
    expect(
      sameCreatedUser({ firstname: 'Ann', lastname: 'Lee' }, { firstname: 'Ann', lastname: 'Leeds' }),
    ).toBe(false);
  });
});
