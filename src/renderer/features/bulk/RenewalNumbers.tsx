/**
 * A renewal's number per person: a column to type in, in the order the holders are shown,
 * or a column of numbers pasted from a spreadsheet or a list of cards, which fills it.
 */
import { useState } from 'react';
import { formatDate } from '../../app/format.ts';
import type { RenewalRow } from './plan.ts';
import { fillNumberColumn } from './number-column.ts';

interface Props {
  rows: readonly RenewalRow[];
  numbers: ReadonlyMap<number, string>;
  onNumbers: (numbers: ReadonlyMap<number, string>) => void;
}

const nameOf = (row: RenewalRow) => `${row.user.firstname} ${row.user.lastname}`.trim() || row.user.username;

function heldNow(row: RenewalRow): string {
  const expiry = row.held.expirationIso
    ? `expires ${formatDate(row.held.expirationIso)}`
    : 'no expiration date';
  return row.held.credentialnumber
    ? `${expiry}, number ${row.held.credentialnumber}`
    : `${expiry}, no number`;
}

export function RenewalNumbers({ rows, numbers, onNumbers }: Props) {
  const [pasted, setPasted] = useState('');
  const [note, setNote] = useState('');
  const setOne = (userid: number, value: string) => onNumbers(new Map(numbers).set(userid, value));
  const fill = (text: string) => {
    setPasted(text);
    if (text.trim() === '') return setNote('');
    const filled = fillNumberColumn(
      rows.map((r) => r.user.userid),
      text,
    );
    onNumbers(filled.numbers);
    setNote(filled.note);
  };
  return (
    <div className="renewal-numbers">
      <table aria-label="New numbers">
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Holds now</th>
            <th scope="col">New number</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.user.userid}>
              <th scope="row">{nameOf(row)}</th>
              <td>{heldNow(row)}</td>
              <td>
                <input
                  aria-label={`New number for ${nameOf(row)}`}
                  value={numbers.get(row.user.userid) ?? ''}
                  placeholder={row.held.credentialnumber ? 'keeps the number held' : ''}
                  onChange={(e) => setOne(row.user.userid, e.target.value)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <label className="paste-column">
        Paste a column of numbers, one per person in the order shown
        <textarea
          rows={Math.min(6, Math.max(2, rows.length))}
          value={pasted}
          onChange={(e) => fill(e.target.value)}
        />
      </label>
      {note && <p role="status">{note}</p>}
    </div>
  );
}
