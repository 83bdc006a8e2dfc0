/**
 * The user selection (what bulk actions apply to), held in a zustand store so
 * the bulk feature can read it from anywhere. The rules are pure functions.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { SelectMode } from '../../components/VirtualGrid.tsx';

export interface Selection {
  selected: ReadonlySet<number>;
  /** where a shift-click range starts */
  anchor: number | null;
}

export const emptySelection: Selection = { selected: new Set(), anchor: null };

/**
 * Click selects only that user; ctrl/cmd-click toggles one; shift-click selects
 * the range from the anchor (in the list's current order) and adds it.
 */
export function nextSelection(current: Selection, orderedIds: readonly number[], index: number, mode: SelectMode, fromIndex?: number): Selection {
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

export interface SelectionStore extends Selection {
  select(orderedIds: readonly number[], index: number, mode: SelectMode, fromIndex?: number): void;
  /** "select all matching the filter" */
  selectAll(ids: readonly number[]): void;
  clear(): void;
}

export const userSelectionStore = createStore<SelectionStore>()((set) => ({
  ...emptySelection,
  select: (orderedIds, index, mode, fromIndex) => set((s) => nextSelection(s, orderedIds, index, mode, fromIndex)),
  selectAll: (ids) => set({ selected: new Set(ids), anchor: null }),
  clear: () => set({ ...emptySelection }),
}));

export function useUserSelection<T>(select: (s: SelectionStore) => T): T {
  return useStore(userSelectionStore, select);
}
