/**
 * The dashboard's figures hold still while a sync runs. Each figure reads a
 * whole table or a large index (every training assignment, every credential
 * holder), and a live query runs again after every transaction that writes what
 * it read: with the dashboard open during a first sync of dataset `l`, the
 * sync's hundreds of page writes set the four figures re-reading the cache
 * after each one, and the sync took over four times as long (95 s with the
 * Users list open; still running after 7 minutes with the dashboard). While a
 * sync runs, a figure keeps the value it last had and reads no table, so no
 * write wakes it; when the sync ends it reads once.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncState } from '../../sync/store.ts';

/** What a held query answers: "keep what you had". */
export const HELD: unique symbol = Symbol('held while a sync runs');

/** The querier to hand to a live query: while syncing, HELD at once, no table read (so nothing observed). */
export function settledQuerier<T>(query: () => Promise<T>, syncing: boolean): () => Promise<T | typeof HELD> {
  return syncing ? () => Promise.resolve(HELD) : query;
}

/** A live query that holds its last value while a sync runs and reads again once it has ended. */
export function useSettledLiveQuery<T>(query: () => Promise<T>, deps: readonly unknown[]): T | undefined {
  const syncing = useSyncState((s) => s.running);
  const [last, setLast] = useState<T | undefined>(undefined);
  const value = useLiveQuery(settledQuerier(query, syncing), [...deps, syncing]);
  const fresh = value === HELD ? undefined : value;
  // the last answer read, kept for while a sync holds the query (state derived during render, as React allows)
  if (fresh !== undefined && fresh !== last) setLast(fresh);
  return fresh ?? last;
}
