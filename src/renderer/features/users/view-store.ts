/**
 * What the users list shows: search text, filters and sort (kept across visits to a user's detail, not across
 * profiles).
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import { profileStore } from '../../app/profile-stores.ts';
import { DEFAULT_SORT, type UserFilters, type UserSort, type UserSortKey } from './queries.ts';

export interface UsersViewState {
  text: string;
  filters: UserFilters;
  sort: UserSort;
  setText(text: string): void;
  setFilter<K extends keyof UserFilters>(key: K, value: UserFilters[K]): void;
  clearFilters(): void;
  sortBy(key: UserSortKey): void;
}

export const usersViewStore = profileStore(
  createStore<UsersViewState>()((set) => ({
    text: '',
    filters: {},
    sort: DEFAULT_SORT,
    setText: (text) => set({ text }),
    setFilter: (key, value) => set((s) => ({ filters: { ...s.filters, [key]: value } })),
    clearFilters: () => set({ filters: {}, text: '' }),
    // clicking the sorted column again reverses it
    sortBy: (key) =>
      set((s) => ({
        sort: { key, direction: s.sort.key === key && s.sort.direction === 'asc' ? 'desc' : 'asc' },
      })),
  })),
);

export function useUsersView<T>(select: (s: UsersViewState) => T): T {
  return useStore(usersViewStore, select);
}
