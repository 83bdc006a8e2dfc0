/**
 * What the import will do with one row of the file (match.ts makes it). Types
 * only, so the rules that adjust a plan (unknown-cache.ts) need not import the matching.
 */
import type { UserRecord } from '../../../shared/records.ts';
import type { UsernameRule } from './hr-files.ts';
import type { OverriddenField, QueuedCreate } from './queued.ts';
import type { KeptAssignments } from './queued-assignments.ts';
import type { RowValues, UserChanges } from './file-row.ts';

export type RowPlan =
  /** `derivedFrom`: the username was made by this rule, not given by the file */
  | { rowNumber: number; action: 'create'; values: RowValues; derivedFrom?: UsernameRule }
  /**
   * `identity`: the username or employee id changes: queued only when ticked; `undoes`: fields whose queued change
   * the row overrides (the file wins: sent after it); `emailAfter`: the queued ops the e-mail's addition waits for;
   * `queuedCreate`: the person is only queued to be created, and the row's ops take the new id from that create;
   * `keeps`: the credential or course the file gives that a queued change deletes, assigned again after it
   */
  | {
      rowNumber: number;
      action: 'update' | 'identity';
      user: UserRecord;
      changes: UserChanges;
      emailAdded?: string;
      undoes?: OverriddenField[];
      emailAfter?: readonly string[];
      queuedCreate?: QueuedCreate;
      keeps?: KeptAssignments;
    }
  | { rowNumber: number; action: 'unchanged'; user: UserRecord }
  | { rowNumber: number; action: 'skipped'; reason: string; user?: UserRecord }
  | { rowNumber: number; action: 'conflict'; reasons: string[]; people: UserRecord[]; rows: number[] }
  | { rowNumber: number; action: 'ambiguous'; reason: string; people: UserRecord[] }
  | { rowNumber: number; action: 'invalid'; errors: string[] };
