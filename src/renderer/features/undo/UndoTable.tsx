/**
 * The undo preview's table: each change of the batch, what its undo will do
 * (in the undo's direction: "status Inactive → Active"), what the record holds
 * now, and for a record changed since, before / after the batch / now, with the
 * choice to revert it anyway.
 */
import type { AppError } from '../../../shared/ipc.ts';
import { readsOf, type JudgedLine } from '../../../shared/undo/plan.ts';
import type { ReversalStep } from '../../../shared/undo/reverse.ts';
import type { ReadResult } from './current.ts';
import { compareWords, recordNowWords } from './words.ts';

interface UndoTableProps {
  judged: readonly JudgedLine[];
  result: ReadResult;
  force: ReadonlySet<string>;
  offers: ReadonlySet<string>;
  onForce: (id: string, on: boolean) => void;
  onOffer: (id: string, on: boolean) => void;
  /** the change the batch made, in words */
  changeWords: (line: JudgedLine['line']) => string;
  /** what a step of the undo will do, in words */
  undoWords: (line: JudgedLine['line'], step: ReversalStep) => string;
}

export function UndoTable({
  judged,
  result,
  force,
  offers,
  onForce,
  onOffer,
  changeWords,
  undoWords,
}: UndoTableProps) {
  return (
    <table className="outbox-table" aria-label="Undo preview">
      <thead>
        <tr>
          <th scope="col">Change</th>
          <th scope="col">The undo will</th>
          <th scope="col">Record now</th>
          <th scope="col">Before / after the batch / now</th>
          <th scope="col">Choice</th>
        </tr>
      </thead>
      <tbody>
        {judged.map((j) => (
          <UndoRow
            key={j.line.op.id}
            judged={j}
            change={changeWords(j.line)}
            undo={j.line.step ? undoWords(j.line, j.line.step) : ''}
            error={j.line.step ? result.errors.get(readKeyOf(j)) : undefined}
            forced={force.has(j.line.op.id)}
            offered={offers.has(j.line.op.id)}
            onForce={(on) => onForce(j.line.op.id, on)}
            onOffer={(on) => onOffer(j.line.op.id, on)}
          />
        ))}
      </tbody>
    </table>
  );
}

function readKeyOf(j: JudgedLine): string {
  return [...readsOf([j.line]).keys()][0] ?? '';
}

interface RowProps {
  judged: JudgedLine;
  change: string;
  undo: string;
  error: AppError | undefined;
  forced: boolean;
  offered: boolean;
  onForce: (on: boolean) => void;
  onOffer: (on: boolean) => void;
}

function UndoRow({ judged: j, change, undo, error, forced, offered, onForce, onOffer }: RowProps) {
  const reversal = j.line.reversal;
  const step = j.line.step;
  const what = !reversal
    ? `Never applied (${j.line.op.status === 'pending' ? 'still waiting' : j.line.op.status}): nothing to undo`
    : reversal.kind === 'irreversible'
      ? `${reversal.reason}${reversal.offer ? ` Offered instead: ${undo}.` : ''}`
      : `${undo}${step?.caveat ? ` (${step.caveat})` : ''}`;
  const state = !step
    ? ''
    : error
      ? `Could not be checked: ${error.message}`
      : recordNowWords(j.verdict, reversal?.kind === 'irreversible', offered);
  return (
    <tr className={`undo-line undo-${j.verdict ?? (reversal ? reversal.kind : 'not-applied')}`}>
      <td>{change}</td>
      <td>{what}</td>
      <td>{state}</td>
      <td>
        {j.verdict === 'conflict' && (
          <ul aria-label="Before / after the batch / now">
            {j.compare.map((c) => (
              <li key={c.field}>{compareWords(c, j.line.op.op)}</li>
            ))}
          </ul>
        )}
      </td>
      <td>
        {reversal?.kind === 'irreversible' && reversal.offer && (
          <label>
            <input type="checkbox" checked={offered} onChange={(e) => onOffer(e.target.checked)} />{' '}
            {reversal.offer.label}
          </label>
        )}
        {j.verdict === 'conflict' && (reversal?.kind === 'reverse' || offered) && (
          <label>
            <input type="checkbox" checked={forced} onChange={(e) => onForce(e.target.checked)} /> Revert
            anyway
          </label>
        )}
      </td>
    </tr>
  );
}
