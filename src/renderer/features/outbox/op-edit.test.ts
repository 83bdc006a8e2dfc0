import { describe, expect, it } from 'vitest';
import { editableFields, withEdits } from './OpDetails.tsx';

describe('editing a queued op', () => {
  it('offers the changes of an update as editable fields', () => {
    expect(editableFields({ kind: 'user.update', userid: 1, changes: { status: 'Inactive' } })).toEqual({
      status: 'Inactive',
    });
  });

  it('keeps the target and replaces the values', () => {
    expect(
      withEdits({ kind: 'user.update', userid: 1, changes: { status: 'Inactive' } }, { status: 'Offline' }),
    ).toEqual({
      ok: true,
      op: { kind: 'user.update', userid: 1, changes: { status: 'Offline' } },
    });
  });

  it('refuses values the contract does not accept', () => {
    expect(
      withEdits({ kind: 'email.add', userid: 1, email: 'a@b.c' }, { email: 'x'.repeat(400) }),
    ).toMatchObject({ ok: false });
  });
});
