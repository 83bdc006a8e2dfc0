/**
 * The compliance history's rows (Dexie version 6, db/schema.ts): one per completed
 * sync with the day's figures, a person's version each time a sync sees them (or
 * their findings) change, the latest version of each person, and the names and
 * requirements each time they change. Compact tuples: a year of daily syncs is kept.
 */
import type { EntityTable } from 'dexie';
import type { FindingType } from '../features/report/finding-types.ts';

/** What the report needs of one person, as a sync left the cache. */
export interface PersonFact {
  /** siteid, username, firstname, lastname, employeeid, status, usertype */
  u: [number, string, string, string, string, string, string];
  /** the groups they are a member of */
  g: number[];
  /** each credential assignment: id, credentialid, start, expiration (ISO dates, '' when none) */
  c: [string, number, string, string][];
  /** each training assignment: transcriptid, courseid, course name, course status, due (ISO date) */
  t: [number, number, string, string, string][];
}

/** The day's figures of one scope ("site:101", "group:12", "usertype:Driver"): active people only. */
export interface ScopeFigures {
  scope: string;
  people: number;
  compliant: number;
  findings: Partial<Record<FindingType, number>>;
}

/** One completed sync. */
export interface HistorySyncRow {
  seq?: number;
  /** when the sync ended (ISO time) */
  at: string;
  /** the day it counts for (local ISO date) */
  day: string;
  figures: ScopeFigures[];
}

/**
 * A person as one sync saw them, written only when they or their findings changed; `fact` null: gone from the
 * cache.
 */
export interface HistoryPersonRow {
  id?: number;
  seq: number;
  userid: number;
  fact: PersonFact | null;
  /** findings ("Expired|credential:5") that appeared, and that went away, since the person's previous row */
  appeared: string[];
  resolved: string[];
  /**
   * `fact` null because the person's site is no longer kept on this laptop (the coordinator stopped keeping it),
   * not because they left the platform: their open findings are not resolved, only no longer followed.
   */
  unkept?: true;
}

/** The latest row of each person still held: what the next sync compares with. */
export interface HistoryHeadRow {
  userid: number;
  /** the fact as JSON text */
  fact: string;
  findings: string[];
}

/** The names (sites, groups, credentials, courses) or the requirements, as of a sync, as JSON text. */
export interface HistorySharedRow {
  id?: number;
  seq: number;
  kind: 'catalog' | 'requirements';
  value: string;
}

export type HistoryTables = {
  historySyncs: EntityTable<HistorySyncRow, 'seq'>;
  historyPeople: EntityTable<HistoryPersonRow, 'id'>;
  historyHeads: EntityTable<HistoryHeadRow, 'userid'>;
  historyShared: EntityTable<HistorySharedRow, 'id'>;
};
