import { describe, expect, it } from 'vitest';
import { details, undoingNote } from './ImportPreview.tsx';
import type { RowPlan } from './match.ts';

describe('the import preview in words', () => {
  it('says a new person by username and name, then the employee ID, e-mail and group the file gives', () => {
    const plan = {
      action: 'create',
      rowNumber: 2,
      values: {
        username: 'ann.lee',
        firstname: 'Ann',
        lastname: 'Lee',
        employeeid: '0042',
        group: 'Drivers',
      },
    } as unknown as RowPlan;
    expect(details(plan)).toBe('ann.lee: Ann Lee, employee ID 0042, group Drivers');
  });

  it('says how many rows override a queued change, in the singular and the plural', () => {
    expect(undoingNote(1)).toBe(
      '1 row overrides a change you queued (marked "your queued change"): the file\'s value is sent after it. ' +
        'Untick the row to keep your change instead.',
    );
    expect(undoingNote(2)).toMatch(
      /^2 rows override changes you queued .*values are sent after them\. Untick a row/,
    );
  });
});
