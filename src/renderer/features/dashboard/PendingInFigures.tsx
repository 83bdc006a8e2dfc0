/**
 * What the dashboard's figures include that the platform does not hold yet: "These figures
 * include 3 changes not sent yet", and a switch to see them as the platform holds them.
 */
import { plural } from '../../app/words.ts';
import type { FiguresOf } from './queries.ts';

/** The sentence over the figures, or null when nothing waits to be sent. */
export function pendingInFiguresWords(count: number, of: FiguresOf): string | null {
  if (count === 0) return null;
  const changes = plural(count, 'change');
  const them = count === 1 ? 'it' : 'them';
  return of === 'platform'
    ? `These figures are as the platform holds them, without the ${changes} not sent yet (the lists they open still include ${them}).`
    : `These figures include ${changes} not sent yet.`;
}

export function PendingInFigures({
  count,
  of,
  onChange,
}: {
  count: number;
  of: FiguresOf;
  onChange: (of: FiguresOf) => void;
}) {
  const words = pendingInFiguresWords(count, of);
  if (words === null) return null;
  return (
    <div className="pending-in-figures" role="note" aria-label="Changes not sent yet">
      <p>{words}</p>
      <label className="inline">
        <input
          type="checkbox"
          checked={of === 'platform'}
          onChange={(e) => onChange(e.target.checked ? 'platform' : 'with pending')}
        />{' '}
        Show the figures as the platform holds them
      </label>
    </div>
  );
}
