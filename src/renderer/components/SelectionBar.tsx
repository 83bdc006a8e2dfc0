/**
 * The bar over every list of people: a one-line hint, "Select all N matching",
 * then the count of selected people (saying how many the list no longer shows),
 * the actions registered on a selection (the bulk feature's, with
 * `registerSelectionAction`), and the confirmation of what was just queued,
 * with its Undo. One piece for every list; each list passes its own store.
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type ComponentType } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import {
  createSelectionStore,
  selectedNotShown,
  useSelection,
  type SelectionStoreApi,
} from '../app/people-selection.ts';
import type { SelectMode } from './VirtualGrid.tsx';
import { formatCount } from '../app/format.ts';
import { plural } from '../app/words.ts';
import type { BulkAction } from '../features/bulk/plan.ts';

/** The action a list starts the bulk panel with (a credential's holders: renew that credential). */
export interface BulkPreset {
  type: BulkAction['type'];
  /** the credential, course or group id the action is about */
  choice?: number;
}

export interface QueuedBatch {
  count: number;
  undo: () => Promise<void>;
}

export interface SelectionActionProps {
  /** the selected people's ids */
  userIds: readonly number[];
  preset: BulkPreset | undefined;
  /** a batch was queued: the bar clears the selection and shows the confirmation */
  onQueued: (batch: QueuedBatch) => void;
}

const actions = new Map<string, ComponentType<SelectionActionProps>>();
const listeners = new Set<() => void>();
let version = 0;

export function registerSelectionAction(id: string, action: ComponentType<SelectionActionProps>): () => void {
  actions.set(id, action);
  version += 1;
  for (const l of listeners) l();
  return () => {
    actions.delete(id);
    version += 1;
    for (const l of listeners) l();
  };
}

function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

export interface SelectionBarProps {
  store: SelectionStoreApi;
  /** how many rows the list matches (every page), undefined while it is read */
  matchCount: number | undefined;
  /** the people of every row the list matches (every page), in list order; read again when the list changes */
  loadMatching: () => Promise<readonly number[]>;
  preset?: BulkPreset;
}

const SELECTION_HINT =
  'Click a row to select it, Shift-click to select a range, Ctrl-click to add or remove one; Space selects the row the keyboard is on.';

function QueuedConfirmation({ batch, onDone }: { batch: QueuedBatch; onDone: () => void }) {
  const ref = useRef<HTMLParagraphElement>(null);
  // keyboard focus goes to what just happened, not to the page body
  useEffect(() => ref.current?.focus(), [batch]);
  return (
    <p className="queued-confirmation" role="status" tabIndex={-1} ref={ref}>
      Queued {plural(batch.count, 'change')}: they show as pending in every view.{' '}
      <button type="button" onClick={() => void batch.undo().then(onDone)}>
        Undo
      </button>
    </p>
  );
}

export function SelectionBar({ store, matchCount, loadMatching, preset }: SelectionBarProps) {
  const selected = useSelection(store, (s) => s.selected);
  const { selectAll, clear, drop } = useSelection(store, (s) => s);
  const [queued, setQueued] = useState<QueuedBatch | null>(null);
  useSyncExternalStore(subscribe, () => version);
  const hasSelection = selected.size > 0;
  // the whole list (every page) is read only while someone is selected
  const matching = useLiveQuery(
    async () => (hasSelection ? new Set(await loadMatching()) : null),
    [hasSelection, loadMatching],
  );
  const hidden = matching ? selectedNotShown(selected, matching) : [];
  // the actions get the people in the list's order (a renewal's numbers are given in that order), those not shown last
  const inListOrder = matching
    ? [...[...matching].filter((id) => selected.has(id)), ...hidden]
    : [...selected];
  const onQueued = (batch: QueuedBatch) => {
    clear();
    setQueued(batch);
  };
  // the confirmation is about the last selection: it goes once the next one begins
  // (its changes stay in the Outbox, where each can still be undone)
  useEffect(
    () =>
      store.subscribe((state) => {
        if (state.selected.size > 0) setQueued(null);
      }),
    [store],
  );
  return (
    <div className="selection-bar">
      {!hasSelection ? (
        <p className="hint">
          {SELECTION_HINT}{' '}
          {matchCount !== undefined && matchCount > 0 && (
            <button type="button" onClick={() => void loadMatching().then(selectAll)}>
              Select all {formatCount(matchCount)} matching
            </button>
          )}
        </p>
      ) : (
        <section className="selection-actions" aria-label="Selected people">
          <span role="status">
            {plural(selected.size, 'person', 'people')} selected
            {hidden.length > 0 && (
              <strong>
                : {formatCount(hidden.length)} selected {hidden.length === 1 ? 'is' : 'are'} not shown
              </strong>
            )}
          </span>
          {hidden.length > 0 && (
            <button type="button" onClick={() => drop(hidden)}>
              Unselect the {formatCount(hidden.length)} not shown
            </button>
          )}
          <button type="button" onClick={clear}>
            Clear selection
          </button>
          {/* offered unless the selection is exactly the list */}
          {matching &&
            matchCount !== undefined &&
            (hidden.length > 0 || [...matching].some((id) => !selected.has(id))) && (
              <button type="button" onClick={() => selectAll([...matching])}>
                Select all {formatCount(matchCount)} matching
              </button>
            )}
          {[...actions.entries()].map(([id, Action]) => (
            <Action key={id} userIds={inListOrder} preset={preset} onQueued={onQueued} />
          ))}
        </section>
      )}
      {queued && <QueuedConfirmation batch={queued} onDone={() => setQueued(null)} />}
    </div>
  );
}

/**
 * A list whose rows are about people (a holder, an assignment) selects the people:
 * its own selection store, and the props its VirtualGrid takes to show and change it.
 */
export function useRowSelection<T>(
  rows: readonly T[],
  personOf: (row: T) => number,
  loadMatching: () => Promise<readonly number[]>,
) {
  const [store] = useState(createSelectionStore);
  const selected = useSelection(store, (s) => s.selected);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- personOf is a pure accessor; the ids follow the rows
  const orderedIds = useMemo(() => rows.map(personOf), [rows]);
  return {
    store,
    grid: {
      selected,
      selectionKey: personOf,
      onSelect: (index: number, mode: SelectMode, fromIndex?: number) =>
        store.getState().select(orderedIds, index, mode, fromIndex),
      onSelectAll: () => void loadMatching().then((ids) => store.getState().selectAll(ids)),
    },
  };
}
