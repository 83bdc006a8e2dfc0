/** The Users list's selection (the report's "selected users" scope reads it too), emptied at a profile switch. */
import { profileStore } from '../../app/profile-stores.ts';
import { createSelectionStore, useSelection, type SelectionStore } from '../../app/people-selection.ts';

export const userSelectionStore = profileStore(createSelectionStore());

export function useUserSelection<T>(select: (s: SelectionStore) => T): T {
  return useSelection(userSelectionStore, select);
}
