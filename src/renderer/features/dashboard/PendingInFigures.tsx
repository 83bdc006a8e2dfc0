/**
 * What the dashboard's figures include that the platform does not hold yet: "These figures
 * include 3 changes not sent yet", and a switch to see them as the platform holds them.
 */
import { plural } from '../../app/words.ts';
import { useWaitingChanges } from '../offline/WorkOffline.tsx';
import type { FiguresOf } from './queries.ts';

/**
 * The sentence over the figures, or null when nothing waits to be sent. `waiting` is every change not sent yet (the
 * header's count): when some of them do not touch the figures (an e-mail, a group's access), the sentence says how
 * many of them it includes, so its number and the header's agree.
 */
export function pendingInFiguresWords(count: number, of: FiguresOf, waiting = count): string | null {
  if (count === 0) return null;
  const changes = plural(count, 'change');
  if (of === 'platform') {
    // the platform holds none of the changes waiting: the header's count, whether a figure counts them or not
    const all = Math.max(waiting, count);
    const [waitingChanges, them] = [plural(all, 'change'), all === 1 ? 'it' : 'them'];
    return `These figures are as the platform holds them, without the ${waitingChanges} not sent yet (the lists they open still include ${them}).`;
  }
  const others = waiting - count;
  if (others <= 0) return `These figures include ${changes} not sent yet.`;
  const rest = others === 1 ? 'the other one does not change them' : `the other ${others} do not change them`;
  return `These figures include ${count} of the ${plural(waiting, 'change')} not sent yet; ${rest}.`;
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
  const words = pendingInFiguresWords(count, of, useWaitingChanges());
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
