/** The Users list's selection (the report's "selected users" scope reads it too). */
import { createSelectionStore, useSelection, type SelectionStore } from '../../app/people-selection.ts';

export const userSelectionStore = createSelectionStore();

export function useUserSelection<T>(select: (s: SelectionStore) => T): T {
  return useSelection(userSelectionStore, select);
}
