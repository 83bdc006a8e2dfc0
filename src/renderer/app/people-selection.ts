/**
 * A selection of people in a list (what bulk actions apply to): the rules are
 * pure functions; each list keeps its own zustand store of them, made by
 * `createSelectionStore()`, so a selection never leaks from one list to another.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { SelectMode } from '../components/VirtualGrid.tsx';

export interface Selection {
  selected: ReadonlySet<number>;
  /** where a shift-click range starts */
  anchor: number | null;
}

export const emptySelection: Selection = { selected: new Set(), anchor: null };

/**
 * Click selects only that person; ctrl/cmd-click toggles one; shift-click selects
 * the range from the anchor (in the list's current order) and adds it.
 */
export function nextSelection(
  current: Selection,
  orderedIds: readonly number[],
  index: number,
  mode: SelectMode,
  fromIndex?: number,
): Selection {
  const id = orderedIds[index];
  if (id === undefined) return current;
  if (mode === 'only') return { selected: new Set([id]), anchor: id };
  if (mode === 'toggle') {
    const selected = new Set(current.selected);
    if (selected.has(id)) selected.delete(id);
    else selected.add(id);
    return { selected, anchor: id };
  }
  // no anchor yet: a keyboard range starts at the row the keyboard was on
  const anchorIndex = current.anchor === null ? (fromIndex ?? -1) : orderedIds.indexOf(current.anchor);
  const from = anchorIndex < 0 ? index : Math.min(anchorIndex, index);
  const to = anchorIndex < 0 ? index : Math.max(anchorIndex, index);
  const selected = new Set(current.selected);
  for (let i = from; i <= to; i++) selected.add(orderedIds[i]!);
  return { selected, anchor: current.anchor ?? orderedIds[from] ?? id };
}

/** The selected people the list does not show (a filter, or a queued change, took them out of it). */
export function selectedNotShown(selected: ReadonlySet<number>, shown: ReadonlySet<number>): number[] {
  return [...selected].filter((id) => !shown.has(id));
}

export interface SelectionStore extends Selection {
  select(orderedIds: readonly number[], index: number, mode: SelectMode, fromIndex?: number): void;
  /** "select all matching the filter" */
  selectAll(ids: readonly number[]): void;
  /** unselect these */
  drop(ids: readonly number[]): void;
  clear(): void;
}

export type SelectionStoreApi = StoreApi<SelectionStore>;

export function createSelectionStore(): SelectionStoreApi {
  return createStore<SelectionStore>()((set) => ({
    ...emptySelection,
    select: (orderedIds, index, mode, fromIndex) =>
      set((s) => nextSelection(s, orderedIds, index, mode, fromIndex)),
    selectAll: (ids) => set({ selected: new Set(ids), anchor: null }),
    drop: (ids) =>
      set((s) => {
        const selected = new Set(s.selected);
        for (const id of ids) selected.delete(id);
        return { selected, anchor: s.anchor !== null && selected.has(s.anchor) ? s.anchor : null };
      }),
    clear: () => set({ ...emptySelection }),
  }));
}

export function useSelection<T>(store: SelectionStoreApi, select: (s: SelectionStore) => T): T {
  return useStore(store, select);
}
