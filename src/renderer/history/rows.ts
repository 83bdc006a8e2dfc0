/**
 * The compliance history's rows (Dexie versions 6 to 9, db/schema.ts): one per completed
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
  /**
   * each training assignment: transcriptid, courseid, course name ('' where the names of the same sync give it:
   * facts.ts), course status, due (ISO date)
   */
  t: [number, number, string, string, string][];
}

/** The day's figures of one scope ("site:101", "group:12", "usertype:Driver"): active people only. */
export interface ScopeFigures {
  scope: string;
  people: number;
  compliant: number;
  findings: Partial<Record<FindingType, number>>;
}

/** A scope's figures as a sync's row keeps them: scope, people, compliant, each type's count (sync-figures.ts). */
export type KeptFigures = [scope: string, people: number, compliant: number, ...counts: number[]][];

/** One completed sync, as the history's readers take it (history/sync-figures.ts, `syncOf`). */
export interface HistorySyncRow {
  seq?: number;
  /** when the sync ended (ISO time) */
  at: string;
  /** the day it counts for (local ISO date) */
  day: string;
  figures: ScopeFigures[];
  /** when the history before this sync was dropped (ISO time; history/horizon.ts): it is then the first sync kept */
  droppedBefore?: string;
}

/** A sync's row as the table keeps it (database version 11): its figures as tuples. */
export type KeptSyncRow = Omit<HistorySyncRow, 'figures'> & { figures: KeptFigures };

/**
 * What a sync saw change of one person (history/change.ts): written only when they or their findings changed,
 * holding only what changed (a person first seen: all of their fact). Absent fields did not change. Stored packed
 * (`HistoryPackRow`, history/packs.ts), with `id` their order when read.
 */
export interface HistoryPersonRow {
  id?: number;
  seq: number;
  userid: number;
  /** the user fields, when they changed */
  u?: PersonFact['u'];
  /** all of the groups, when they changed */
  g?: number[];
  /** each credential assignment added or whose dates changed (the old dates stay in an earlier row); ids gone */
  c?: PersonFact['c'];
  cx?: string[];
  /** each training assignment added or changed; transcript ids gone */
  t?: PersonFact['t'];
  tx?: number[];
  /**
   * No longer in the cache: gone from the platform, or from this laptop only ('laptop': their site is no longer
   * kept here), whose open findings are then not resolved, only no longer followed.
   */
  gone?: 'platform' | 'laptop';
  /** findings ("Ek5": expired, credential 5; figures.ts) that appeared, and that went away, since the previous row */
  a?: string[];
  r?: string[];
}

/** The latest row of each person still held: what the next sync compares with. */
export interface HistoryHeadRow {
  userid: number;
  /** the fact as JSON text, deflated (history/heads.ts) */
  fact: Uint8Array;
  findings: string[];
  /** the next day on which their findings may change with the date alone (an expiry coming); absent: none */
  next?: string;
}

/**
 * A head as the table keeps it since database version 15: the fact only; everyone's findings and next day are in one
 * record (history/head-state.ts), so a person whose findings change with the date alone is not rewritten.
 */
export type KeptHeadRow = Pick<HistoryHeadRow, 'userid' | 'fact'>;

/** Everyone's findings and next day, in one record (history/head-state.ts; `keys` since version 17). */
export interface HeadStateRow {
  id: number;
  /** the finding keys the people hold, the most frequent first */
  keys: string[];
  /** each person's userid, next day and findings (their places in `keys`) */
  people: Uint8Array;
}

/** A sync's people's rows of one bucket of userids, as deflated JSON (history/packs.ts). */
export interface HistoryPackRow {
  id?: number;
  seq: number;
  bucket: number;
  rows: Uint8Array;
}

/** The names (sites, groups, credentials, courses) or the requirements, as of a sync, as JSON text. */
export interface HistorySharedRow {
  id?: number;
  seq: number;
  kind: 'catalog' | 'requirements';
  value: string;
}

/** A names or requirements row as the table keeps it (database version 12): its JSON text deflated (shared-rows.ts). */
export type KeptSharedRow = Omit<HistorySharedRow, 'value'> & { value: Uint8Array };

export type HistoryTables = {
  historySyncs: EntityTable<KeptSyncRow, 'seq'>;
  historyPacks: EntityTable<HistoryPackRow, 'id'>;
  historyHeads: EntityTable<KeptHeadRow, 'userid'>;
  historyHeadState: EntityTable<HeadStateRow, 'id'>;
  historyShared: EntityTable<KeptSharedRow, 'id'>;
};
