/**
 * The people written since the last snapshot, kept on disk (Dexie version 9, db/schema.ts): a row a person a write,
 * added by history/touched.ts in the write's own transaction, taken away by the snapshot that looked at them.
 */
import type { EntityTable } from 'dexie';

export interface HistoryWrittenRow {
  id?: number;
  /** the person written; absent: a write whose people are not known (the next snapshot reads everyone) */
  userid?: number;
  /** the window that wrote it (its database memory's): only that window knows what it wrote */
  by: string;
}

export type HistoryWrittenTables = {
  historyWritten: EntityTable<HistoryWrittenRow, 'id'>;
};

/** The table's name, for the middleware that adds it to a write's transaction. */
export const HISTORY_WRITTEN = 'historyWritten';
