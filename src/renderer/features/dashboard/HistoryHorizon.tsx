/**
 * The history's horizon (history/horizon.ts), under the trend: how many years
 * this laptop keeps (remembered on this laptop, two by default), what dropping
 * the older history would remove, and a drop that is asked twice, the second
 * time offering the export first: what is dropped is kept nowhere else.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { FieldbookDb } from '../../db/index.ts';
import { formatDate } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { DEFAULT_HORIZON_YEARS, dropHistoryBefore, dropPlan, horizonDay } from '../../history/horizon.ts';

const YEARS_KEY = 'fieldbook.historyYears';

function savedYears(): number {
  const years = Number(globalThis.localStorage?.getItem(YEARS_KEY));
  return Number.isInteger(years) && years >= 1 && years <= 10 ? years : DEFAULT_HORIZON_YEARS;
}

interface Props {
  db: FieldbookDb;
  today: string;
  onExport: () => void;
}

export function HistoryHorizon({ db, today, onExport }: Props) {
  const [years, setYears] = useState(savedYears);
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const firstKept = horizonDay(today, years);
  const plan = useLiveQuery(() => dropPlan(db, firstKept), [db, firstKept]);
  const choose = (value: number) => {
    setYears(value);
    setAsking(false);
    globalThis.localStorage?.setItem(YEARS_KEY, String(value));
  };
  const drop = async () => {
    const dropped = await dropHistoryBefore(db, firstKept);
    setAsking(false);
    setDone(`${plural(dropped, 'sync')} dropped: the history now starts on ${formatDate(plan!.start!.day)}.`);
  };
  return (
    <details>
      <summary>Older history</summary>
      <label>
        Keep the history of the last{' '}
        <input
          type="number"
          min={1}
          max={10}
          value={years}
          onChange={(e) => choose(Math.min(10, Math.max(1, Number(e.target.value) || DEFAULT_HORIZON_YEARS)))}
        />{' '}
        years
      </label>
      {done && <p role="status">{done}</p>}
      {!plan?.start ? (
        <p>Nothing in this laptop's history is older than that.</p>
      ) : (
        <DropOffer
          count={plan.dropped}
          before={plan.start.day}
          asking={asking}
          onAsk={() => setAsking(true)}
          onCancel={() => setAsking(false)}
          onExport={onExport}
          onDrop={() => void drop()}
        />
      )}
    </details>
  );
}

interface OfferProps {
  count: number;
  before: string;
  asking: boolean;
  onAsk: () => void;
  onCancel: () => void;
  onExport: () => void;
  onDrop: () => void;
}

function DropOffer({ count, before, asking, onAsk, onCancel, onExport, onDrop }: OfferProps) {
  const what = `${plural(count, 'sync')} before ${formatDate(before)}`;
  if (!asking)
    return (
      <p>
        {what} can be dropped. The days from {formatDate(before)} on stay exactly as they are.{' '}
        <button type="button" onClick={onAsk}>
          Drop the older history…
        </button>
      </p>
    );
  return (
    <div role="alertdialog" aria-label="Drop the older history">
      <p>
        Drop the {what}, with their daily figures and each person's changes? They are kept nowhere else:
        export the history first to keep a copy. The report as of a day before {formatDate(before)} will no
        longer be possible.
      </p>
      <p>
        <button type="button" onClick={onExport}>
          Export the history first (XLSX)
        </button>{' '}
        <button type="button" onClick={onDrop}>
          Drop them
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Keep them
        </button>
      </p>
    </div>
  );
}
