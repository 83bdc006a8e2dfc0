/**
 * A text file that is not (wholly) UTF-8: the encodings it could be in, best
 * guess first, each with names of the file as it reads them, for the user to
 * pick the one where the names look right; for a UTF-8 file with a few stray
 * bytes, the rows holding them, to skip. Nothing is queued until one is chosen.
 */
import type { EncodingQuestion } from './read/table.ts';
import { plural } from '../../app/words.ts';

/** 'skip': leave out the damaged rows of a UTF-8 file; else the encoding chosen. */
export type EncodingAnswer = string;
export const SKIP_DAMAGED = 'skip';

/** the likeliest encodings shown with their sample; the others in a list */
const SHOWN = 4;

interface Props {
  question: EncodingQuestion;
  answer: EncodingAnswer | null;
  onAnswer: (answer: EncodingAnswer) => void;
  busy: boolean;
}

export function ImportEncodingChoice({ question, answer, onAnswer, busy }: Props) {
  const { damagedRows, candidates, read } = question;
  const shown = candidates.slice(0, SHOWN);
  const others = candidates.slice(SHOWN);
  return (
    <fieldset className="import-encoding" aria-label="Encoding of the file" disabled={busy}>
      <legend>{damagedRows ? 'Rows that are not UTF-8' : 'Which encoding is this file in?'}</legend>
      {answer !== null ? (
        <p role="status">
          {answer === SKIP_DAMAGED
            ? 'The rows that are not UTF-8 are left out.'
            : `Read as ${candidates.find((c) => c.encoding === answer)?.name ?? answer}, as you chose.`}{' '}
          Choose again below if the names do not look right.
        </p>
      ) : damagedRows ? (
        <p role="alert">
          The file is UTF-8, but {plural(damagedRows.length, 'row')} ({damagedRows.slice(0, 10).join(', ')}
          {damagedRows.length > 10 ? '…' : ''}){' '}
          {damagedRows.length === 1 ? 'holds characters' : 'hold characters'} saved in another encoding (shown
          as �). Skip {damagedRows.length === 1 ? 'it' : 'them'}, or read the whole file in the encoding where
          the names look right. Nothing is queued until you choose.
        </p>
      ) : (
        <p role="alert">
          The file is not UTF-8, and a text file does not say which encoding it was saved in. It is shown
          below read as {candidates.find((c) => c.encoding === read)?.name ?? read}: choose the encoding where
          the names look right. Nothing is queued until you choose.
        </p>
      )}
      {damagedRows && (
        <label>
          <input
            type="radio"
            name="file-encoding"
            checked={answer === SKIP_DAMAGED}
            onChange={() => onAnswer(SKIP_DAMAGED)}
          />{' '}
          Skip {damagedRows.length === 1 ? `row ${damagedRows[0]}` : `these ${damagedRows.length} rows`}; read
          the rest as UTF-8
        </label>
      )}
      {shown.map((c) => (
        <label key={c.encoding}>
          <input
            type="radio"
            name="file-encoding"
            checked={answer === c.encoding}
            onChange={() => onAnswer(c.encoding)}
          />{' '}
          {c.name}: <span>{c.sample.join(', ') || '(no names with accents)'}</span>
        </label>
      ))}
      {others.length > 0 && (
        <label>
          Another encoding{' '}
          <select
            value={others.some((c) => c.encoding === answer) ? (answer ?? '') : ''}
            onChange={(e) => e.target.value && onAnswer(e.target.value)}
          >
            <option value="">(choose)</option>
            {others.map((c) => (
              <option key={c.encoding} value={c.encoding}>
                {c.name}: {c.sample.slice(0, 3).join(', ')}
              </option>
            ))}
          </select>
        </label>
      )}
    </fieldset>
  );
}
