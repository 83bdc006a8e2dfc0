/**
 * The preview started while the file is read: the rows that arrive are planned at once with the columns the view will
 * choose, and the preview's plan takes those plans only when its inputs turn out the same.
 */
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../shared/records.ts';
import { HeadStart } from './head-start.ts';
import type { Sheet } from './header.ts';
import { NO_HR_CHOICES } from './hr-files.ts';
import { planImport } from './match.ts';
import type { PlanInputs } from './plan-inputs.ts';
import { NOTHING_QUEUED } from './queued.ts';
import type { RawRow } from './read/table.ts';
import { rowsOf } from './rows.ts';

const ann: UserRecord = {
  ...{ userid: 1, siteid: 101, username: 'ann', firstname: 'Ann', lastname: 'Lee', employeeid: 'E1' },
  ...{ status: 'Active', usertype: 'User', searchKeys: [], sortName: '' },
};
const read: RawRow[] = [
  { rowNumber: 1, cells: ['Username', 'First name', 'Last name'] },
  { rowNumber: 2, cells: ['ann', 'Ann', 'Moss'] },
  ...Array.from({ length: 60 }, (_, i) => ({ rowNumber: i + 3, cells: [`u${i}`, `F${i}`, `L${i}`] })),
];
const headers = ['Username', 'First name', 'Last name'];
const emails = new Map<number, ReadonlySet<string>>();
const groups = new Map();
const extras = {};
const users = [ann];

/** The plan inputs the view gives once the file is read: a new sheet and a new mapping object, the rest as it was. */
function inputs(
  sheet: Sheet,
  mapping: PlanInputs['mapping'] = { username: 0, firstname: 1, lastname: 2 },
): PlanInputs {
  return {
    ...{
      sheet,
      mapping,
      users,
      siteid: 101,
      cachedSites: [101],
      emails,
      queued: NOTHING_QUEUED,
      groups,
    },
    ...{ extras, key: 'username', mode: 'upsert', dateOrder: undefined, requires: [], padIds: null },
    ...{ unknownCache: null, hr: NO_HR_CHOICES },
  };
}
const sheetRead: Sheet = { headers, headerRowNumber: 1, rows: read.slice(1), warnings: [] };

/** A head start given the rows in two slices, as the worker sends them; `guessed` sees the header it was given. */
function startedOn(slices: readonly number[]) {
  const guessed: Sheet[] = [];
  const ahead = new HeadStart((header) => {
    guessed.push(header);
    return inputs(header);
  });
  for (const end of slices) ahead.add(read.slice(0, end));
  return { ahead, guessed };
}

describe('the preview started while the file is read', () => {
  it('plans every row that arrived, with the header found in the first rows: the plan the whole file gets', async () => {
    const { ahead } = startedOn([40, read.length]);
    await ahead.planned();
    const made = ahead.take(inputs(sheetRead))!;
    const rows = sheetRead.rows.map((raw, at) => made.rowOf(raw, at)!);
    expect(rows).toEqual(rowsOf(sheetRead, inputs(sheetRead).mapping));
    const whole = planImport(rows, users, 101, emails, {
      key: 'username',
      mode: 'upsert',
      groups,
      requires: [],
    });
    expect(rows.map((row, at) => made.early(row, at))).toEqual(whole);
    expect(whole[0]).toMatchObject({ action: 'update', user: ann });
  });

  it('gives no row made ahead for another row at its place (rows left out since: the damaged rows skipped)', async () => {
    const { ahead } = startedOn([40, read.length]);
    await ahead.planned();
    const made = ahead.take(inputs(sheetRead))!;
    const [first, second] = sheetRead.rows;
    // the sheet without its first row: the second row is now at the first place
    expect(made.rowOf(second!, 0)).toBeUndefined();
    const mapped = made.rowOf(first!, 0)!;
    expect(made.early(mapped, 0)).toMatchObject({ action: 'update' });
    expect(made.early({ ...mapped }, 0)).toBeUndefined();
  });

  it('gives nothing when the view chose other columns than those guessed (a preset, another header row)', () => {
    const { ahead } = startedOn([40, read.length]);
    expect(ahead.take(inputs(sheetRead, { username: 0, firstname: 2, lastname: 1 }))).toBeNull();
    expect(ahead.take({ ...inputs(sheetRead), sheet: { ...sheetRead, headerRowNumber: 2 } })).toBeNull();
    expect(ahead.take({ ...inputs(sheetRead), users: [] })).toBeNull();
    expect(ahead.take(inputs(sheetRead))).not.toBeNull();
  });

  it('waits for the first 30 rows, where the header row is looked for, before it guesses anything', () => {
    const { ahead, guessed } = startedOn([20]);
    expect(guessed).toEqual([]);
    expect(ahead.take(inputs(sheetRead))).toBeNull();
    ahead.add(read.slice(0, 30));
    expect(guessed.map((g) => g.headerRowNumber)).toEqual([1]);
  });

  it('plans nothing more once stopped (another file dropped, or the reading failed)', async () => {
    const { ahead } = startedOn([40]);
    ahead.stop();
    ahead.add(read);
    await ahead.planned();
    const made = ahead.take(inputs(sheetRead))!;
    expect(made.rowOf(read.at(-1)!, read.length - 2)).toBeUndefined();
  });
});
