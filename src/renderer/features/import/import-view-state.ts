/**
 * The Import view's own state as a reducer (the extras the file gives, the last
 * message), and what is derived from it and from the hooks' answers as pure
 * selectors: the inputs of a plan, whether the import may be queued, and how many
 * rows would be. `samePlanInputs` lets the view keep one set of plan inputs while
 * nothing the plan reads has changed, so typing a date does not re-plan the file.
 */
import { firstWriteRefusal } from '../../../shared/access.ts';
import type { TokenAccess } from '../../../shared/ipc.ts';
import type { UserRecord } from '../../../shared/records.ts';
import { extraKinds, extrasRefusal, requiredOfRows, type ImportExtras } from './extras.ts';
import type { Sheet } from './header.ts';
import type { HrChoices } from './hr-files.ts';
import type { ColumnMapping } from './mapping.ts';
import type { EmailsByUser, GroupRef, ImportMode, MatchKey, MatchOptions, RowPlan } from './match.ts';
import { hasDeletions } from './queued-assignments.ts';
import type { QueuedState } from './queued.ts';
import { isQueued } from './rows.ts';
import type { PlanInputs } from './useImportPlans.ts';

interface ImportViewState {
  extras: ImportExtras;
  /** what the last queueing said; cleared when a file starts reading */
  message: string | null;
}

type ImportViewAction =
  { type: 'extras'; extras: ImportExtras } | { type: 'message'; message: string | null };

export const FIRST_IMPORT_VIEW_STATE: ImportViewState = { extras: {}, message: null };

export function importViewReducer(state: ImportViewState, action: ImportViewAction): ImportViewState {
  switch (action.type) {
    case 'extras':
      return { ...state, extras: action.extras };
    case 'message':
      return { ...state, message: action.message };
  }
}

const NO_EXTRAS: ImportExtras = {};

/** The extras matter to the plan only where a queued change deletes what they give (queued-assignments.ts). */
function extrasForPlan(queued: QueuedState | undefined, extras: ImportExtras): ImportExtras {
  return queued && hasDeletions(queued.deletions) ? extras : NO_EXTRAS;
}

/** The refusal of the profile's write rule to what this import would write (shared/access.ts); null: allowed. */
export function importRefusal(
  access: TokenAccess,
  extras: ImportExtras,
  mapping: ColumnMapping,
): string | null {
  const kinds = extraKinds(extras, mapping.group !== undefined);
  return firstWriteRefusal(access, ['user.create', 'user.update', 'email.add', ...kinds]);
}

/** Why the extras cannot be given with these columns; null: they can. */
export function extrasProblemOf(extras: ImportExtras, mapping: ColumnMapping): string | null {
  return extrasRefusal(extras, new Set(Object.keys(mapping)));
}

/** Everything a plan reads, some of it still loading (undefined) or unknown (null). */
export interface PlanSources {
  sheet: Sheet | null;
  mapping: ColumnMapping;
  users: readonly UserRecord[];
  siteid: number | null;
  cachedSites: readonly number[];
  emails: EmailsByUser | undefined;
  queued: QueuedState | undefined;
  extras: ImportExtras;
  key: MatchKey;
  mode: ImportMode;
  groups: ReadonlyMap<string, GroupRef> | undefined;
  dateOrder: MatchOptions['dateOrder'];
  padIds: number | null;
  unknownCache: string | null | undefined;
  hr: HrChoices;
}

/**
 * The inputs of a plan, or null while something it reads is not there yet: it is planned only once the
 * cached e-mails are read, so an address already known is never queued again.
 */
export function planInputsOf(s: PlanSources): PlanInputs | null {
  const { sheet, emails, queued, groups, siteid, unknownCache } = s;
  if (!sheet || !emails || !queued || !groups || siteid === null || unknownCache === undefined) return null;
  const { mapping, users, cachedSites, key, mode, dateOrder, padIds, hr } = s;
  const extras = extrasForPlan(queued, s.extras);
  const requires = requiredOfRows(s.extras);
  return {
    ...{ sheet, mapping, users, siteid, cachedSites, emails, queued, extras, key, mode, groups, dateOrder },
    ...{ requires, padIds, unknownCache, hr },
  };
}

/** Two lists of the same items in order. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, i) => Object.is(item, b[i]));
}

/**
 * Two sets of plan inputs would give the same plan: each input is the same object, except the two lists
 * derived afresh on every render (the cached sites, the fields the extras require), which hold the same items.
 */
export function samePlanInputs(a: PlanInputs | null, b: PlanInputs | null): boolean {
  if (a === null || b === null) return a === b;
  const keys = Object.keys(a) as (keyof PlanInputs)[];
  return keys.every((k) =>
    k === 'cachedSites' || k === 'requires' ? sameItems(a[k], b[k]) : Object.is(a[k], b[k]),
  );
}

/** What the user must settle before queueing: the right to write, the extras, the encoding, the site, the zeros. */
export function cannotQueueOf(blocks: {
  refusal: string | null;
  extrasProblem: string | null;
  encodingUndecided: boolean;
  reading: boolean;
  siteid: number | null;
  zerosUndecided: boolean;
}): boolean {
  const { refusal, extrasProblem, encodingUndecided, reading, siteid, zerosUndecided } = blocks;
  return (
    refusal !== null ||
    extrasProblem !== null ||
    encodingUndecided ||
    reading ||
    siteid === null ||
    zerosUndecided
  );
}

/** How many rows of the current plans would be queued: not excluded, and ticked where a tick is asked. */
export function queuedCountOf(
  plans: readonly RowPlan[] | null,
  excluded: ReadonlySet<number>,
  ticked: ReadonlySet<number>,
): number {
  return plans ? plans.filter((p) => isQueued(p, excluded, ticked)).length : 0;
}
