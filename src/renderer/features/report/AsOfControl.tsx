/**
 * "As of": the report of a past day, rebuilt from this laptop's compliance history
 * (as-of.ts), or today's from the cache. The day is kept while the coordinator goes
 * elsewhere and back (this window and this profile only); the first sync kept bounds the choice.
 */
import { create } from 'zustand';
import { useLiveQuery } from 'dexie-react-hooks';
import { todayIso } from '../../../shared/dates.ts';
import { useActiveDb } from '../../app/session.ts';
import { profileStore } from '../../app/profile-stores.ts';
import { formatDate } from '../../app/format.ts';

/** The day the report is as of; null: today, from the cache (changes waiting in the Outbox included). One profile's. */
export const useAsOfDay = profileStore(
  create<{ day: string | null; set(day: string | null): void }>((set) => ({
    day: null,
    set: (day) => set({ day }),
  })),
);

export function AsOfControl() {
  const db = useActiveDb();
  const { day, set } = useAsOfDay();
  const today = todayIso();
  const first = useLiveQuery(
    async () => (db ? ((await db.historySyncs.orderBy('seq').first())?.day ?? null) : null),
    [db],
  );
  return (
    <label>
      As of{' '}
      <input
        type="date"
        value={day ?? today}
        max={today}
        onChange={(e) => set(e.target.value && e.target.value < today ? e.target.value : null)}
      />{' '}
      {day !== null && (
        <button type="button" onClick={() => set(null)}>
          Back to today
        </button>
      )}
      <span className="hint">
        {day !== null
          ? ` Showing ${formatDate(day)} as this laptop's syncs saw it: page 1 of the report says how.`
          : first
            ? ` History kept since ${formatDate(first)}.`
            : ' No history yet: it starts with the next sync.'}
      </span>
    </label>
  );
}
