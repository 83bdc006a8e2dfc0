/** What a preview's plan is made of: the file's sheet and columns, the cache, the queue and the user's choices. */
import type { Sheet } from './header.ts';
import type { ColumnMapping } from './mapping.ts';
import type { EmailsByUser, GroupRef, ImportMode, MatchKey, MatchOptions } from './match.ts';
import type { UserRecord } from '../../../shared/records.ts';
import type { QueuedState } from './queued.ts';
import type { ImportExtras } from './extras.ts';
import type { HrChoices } from './hr-files.ts';

export interface PlanInputs {
  sheet: Sheet;
  mapping: ColumnMapping;
  users: readonly UserRecord[];
  siteid: number;
  /** the sites whose people the cache holds: the others are asked of main's index */
  cachedSites: readonly number[];
  emails: EmailsByUser;
  /** what the Outbox queues besides the records' effective state */
  queued: QueuedState;
  /** the credential and course the file gives */
  extras: Pick<ImportExtras, 'credential' | 'course'>;
  key: MatchKey;
  mode: ImportMode;
  groups: ReadonlyMap<string, GroupRef>;
  dateOrder: MatchOptions['dateOrder'];
  requires: NonNullable<MatchOptions['requires']>;
  /** the width employee ids are padded to with zeros; null: as written */
  padIds: number | null;
  /**
   * why the cache cannot say who is on the site: nobody is created (unknown-cache.ts); null: a sync has read everyone
   */
  unknownCache: string | null;
  /** the profile's username rule and HR status words (hr-files.ts) */
  hr: HrChoices;
}

/** The options a plan of these inputs is made with, before main's answer on the sites not kept. */
export function matchOptionsOf(inputs: PlanInputs): Omit<MatchOptions, 'notKept'> {
  return {
    key: inputs.key,
    mode: inputs.mode,
    groups: inputs.groups,
    requires: inputs.requires,
    queued: inputs.queued,
    extras: inputs.extras,
    unknownCache: inputs.unknownCache,
    statusWords: inputs.hr.statusWords,
    ...(inputs.hr.usernameRule ? { usernameRule: inputs.hr.usernameRule } : {}),
    ...(inputs.dateOrder ? { dateOrder: inputs.dateOrder } : {}),
  };
}
