/**
 * Employee ids that look stripped of their leading zeros: said plainly, with
 * the rows, and the choice between padding them and keeping them as written
 * (or fixing the file). Nothing is queued until the user chooses.
 */
import { useEffect, useState } from 'react';
import type { UserRecord } from '../../../shared/records.ts';
import { plural } from '../../app/words.ts';
import type { Sheet } from './header.ts';
import { lostLeadingZerosInSlices, padId, type LostZeros } from './lost-zeros.ts';

export type ZerosChoice = 'pad' | 'keep';

/**
 * What was found (found a slice of rows at a time: the window stays responsive), the user's choice for
 * it (null: not chosen yet) and the width ids are padded to (null: as written). `undecided` also while
 * the rows are being looked at: nothing is queued before the answer is known.
 */
export function useLostZeros(
  sheet: Sheet | null,
  column: number | undefined,
  users: readonly UserRecord[],
  siteid: number | null,
) {
  const [result, setResult] = useState<{
    sheet: Sheet;
    column: number | undefined;
    siteid: number;
    users: readonly UserRecord[];
    lost: LostZeros | null;
  } | null>(null);
  useEffect(() => {
    if (!sheet || siteid === null) return;
    let stopped = false;
    const siteIds = users.filter((u) => u.siteid === siteid && u.employeeid !== '').map((u) => u.employeeid);
    void lostLeadingZerosInSlices(sheet, column, siteIds, () => stopped).then((lost) => {
      if (lost !== undefined && !stopped) setResult({ sheet, column, siteid, users, lost });
    });
    return () => {
      stopped = true;
    };
  }, [sheet, column, users, siteid]);
  // the same file, column and site: the finding holds (and with it the choice) while the people change and it is looked
  // at again
  const same =
    result !== null && result.sheet === sheet && result.column === column && result.siteid === siteid;
  const lost = same ? result.lost : null;
  const finding = lost ? `${lost.width}:${lost.rows.join(',')}` : '';
  const [chosen, setChosen] = useState<{ finding: string; choice: ZerosChoice } | null>(null);
  const choice = lost && chosen?.finding === finding ? chosen.choice : null;
  const choose = (next: ZerosChoice) => setChosen({ finding, choice: next });
  const looking = sheet !== null && siteid !== null && !(same && result.users === users);
  return {
    lost,
    choice,
    choose,
    padIds: lost && choice === 'pad' ? lost.width : null,
    undecided: looking || (lost !== null && choice === null),
  };
}

interface Props {
  lost: LostZeros;
  sheet: Sheet;
  column: number;
  choice: ZerosChoice | null;
  onChoose: (choice: ZerosChoice) => void;
}

export function ImportZerosChoice({ lost, sheet, column, choice, onChoose }: Props) {
  const { width, rows, numeric } = lost;
  const first = sheet.rows.find((r) => r.rowNumber === rows[0]);
  const example = first?.cells[column] ?? '';
  const listed = `${rows.slice(0, 8).join(', ')}${rows.length > 8 ? '…' : ''}`;
  return (
    <fieldset className="import-zeros" aria-label="Employee IDs without their leading zeros">
      <legend>Employee IDs that may have lost their leading zeros</legend>
      <p role="alert">
        {plural(rows.length, 'employee ID')} {rows.length === 1 ? 'is' : 'are'} shorter than the usual {width}{' '}
        digits (row{rows.length > 1 ? 's' : ''} {listed}
        {numeric ? '; the workbook stores them as numbers' : ''}): a spreadsheet program may have turned{' '}
        {example ? `${padId(example, width)} into ${example}` : 'them into numbers'}. Nothing is queued until
        you choose.
      </p>
      <label>
        <input type="radio" name="lost-zeros" checked={choice === 'pad'} onChange={() => onChoose('pad')} />{' '}
        Pad them with zeros to {width} digits
        {example ? ` (${example} → ${padId(example, width)})` : ''}
      </label>
      <label>
        <input type="radio" name="lost-zeros" checked={choice === 'keep'} onChange={() => onChoose('keep')} />{' '}
        Keep them as written
      </label>
      <p>
        Or fix the file: format the column as Text in the spreadsheet, type the ids again with their zeros,
        save, and drop the file here again.
      </p>
    </fieldset>
  );
}
