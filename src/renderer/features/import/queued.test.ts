/** An import planned against what the user will have after their queued changes, never silently undoing one. */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { emailsByUser, planImport, type RowValues } from './match.ts';
import { draftsOf, isQueued } from './rows.ts';
import { details, undoingNote } from './ImportPreview.tsx';
import { resultsTable } from './results.ts';
import { applyPendingToUsers } from '../../outbox/pending.ts';
import { outboxOp, statusOp } from '../../../shared/testing/test-ops.ts';

const ana: UserRecord = {
  userid: 7, siteid: 101, username: 'ana', firstname: 'Ana', lastname: 'Silva', employeeid: 'E7', status: 'Active', usertype: 'User', searchKeys: [], sortName: '',
};
const NONE = new Set<number>();

/** The coordinator queued "Inactive" for Ana in bulk; the file is then planned against the effective state, as the view does. */
const afterQueued = (values: RowValues, queued = [statusOp(7, 'Inactive')]) =>
  planImport([{ rowNumber: 2, values }], applyPendingToUsers([ana], queued), 101, emailsByUser([]), { key: 'username', mode: 'upsert' })[0]!;

describe('a row against the queued changes', () => {
  it('shows a row that sets a queued status back as undoing the queued change', () => {
    const row = afterQueued({ username: 'ana', status: 'Active' });
    expect(row).toMatchObject({ action: 'update', changes: { status: 'Active' }, undoes: ['status'] });
    expect(details(row)).toBe('Ana Silva (ana, employee ID E7): Status: Inactive (your queued change) → Active');
  });

  it('does not queue a row that undoes a queued change unless it is ticked', () => {
    const row = afterQueued({ username: 'ana', status: 'Active' });
    expect(isQueued(row, NONE, NONE)).toBe(false);
    expect(draftsOf([row], 101)).toEqual([]);
    expect(draftsOf([row], 101, NONE, new Set([2]))).toMatchObject([{ op: { kind: 'user.update', userid: 7, changes: { status: 'Active' } }, base: { status: 'Inactive' } }]);
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
    const row = afterQueued({ username: 'ana', status: 'Inactive' }, [statusOp(7, 'Inactive', { status: 'done' })]);
    expect(row).toMatchObject({ action: 'update', changes: { status: 'Inactive' } });
    expect(row.action === 'update' && row.undoes).toBeUndefined();
  });

  it('marks a queued name change the file would undo, next to one it would not', () => {
    const row = afterQueued({ username: 'ana', firstname: 'Ana', lastname: 'Souza' }, [outboxOp({ kind: 'user.update', userid: 7, changes: { firstname: 'Anabela' } })]);
    expect(row).toMatchObject({ undoes: ['firstname'] });
    expect(details(row)).toBe('Anabela Silva (ana, employee ID E7): First name: Anabela (your queued change) → Ana; Last name: Silva → Souza');
  });

  it('says above the rows how many would undo a queued change, and the results file says why one was not queued', () => {
    expect(undoingNote(1)).toBe('1 row would undo a change you queued (marked "your queued change"): it is queued only when ticked.');
    expect(undoingNote(3)).toBe('3 rows would undo changes you queued (marked "your queued change"): each is queued only when ticked.');
    const row = afterQueued({ username: 'ana', status: 'Active' });
    const table = resultsTable({ fileName: 'f', headers: ['username', 'status'], rows: [{ rowNumber: 2, cells: ['ana', 'Active'] }], plans: new Map([[2, row]]), opsByRow: new Map() }, new Map());
    expect(table[1]).toEqual(['ana', 'Active', 'not queued', '', 'It would undo a change you had queued, and was not ticked.']);
  });
});
