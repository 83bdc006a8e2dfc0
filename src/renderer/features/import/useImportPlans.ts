/**
 * The rows of the sheet planned against the people on the site, a slice at a
 * time (the window stays responsive on 200,000 rows), again whenever a setting
 * changes; plans of other settings are never the current ones. Before
 * planning, main is asked about the file's usernames and e-mails at the sites
 * not kept on this laptop (not-kept.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import type { Sheet } from './header.ts';
import type { ColumnMapping } from './mapping.ts';
import {
  planImportInSlices,
  warmPeopleIndex,
  type EmailsByUser,
  type GroupRef,
  type ImportMode,
  type ImportRow,
  type MatchKey,
  type MatchOptions,
  type RowPlan,
} from './match.ts';
import type { FieldbookApi } from '../../../shared/ipc.ts';
import { rowsInSlices } from './rows.ts';
import type { UserRecord } from '../../../shared/records.ts';
import { useSession } from '../../app/session.ts';
import { useSyncState } from '../../sync/store.ts';
import { askSitesNotKept, NONE_NOT_KEPT, notAsked, type SitesNotKept } from './not-kept.ts';
import type { QueuedState } from './queued.ts';
import type { ImportExtras } from './extras.ts';
import { withDerivedUsernames, type HrChoices } from './hr-files.ts';

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

/**
 * What main's identity index says of the rows' usernames and e-mails: nothing to ask when the profile keeps every site.
 * Null: stopped.
 */
function sitesNotKept(
  api: FieldbookApi | null,
  keepsSome: boolean,
  rows: ImportRow[],
  cachedSites: readonly number[],
  stop: () => boolean,
): Promise<SitesNotKept | null> {
  if (!keepsSome) return Promise.resolve(NONE_NOT_KEPT);
  if (!api) return Promise.resolve(notAsked('the app is not connected to its main process'));
  return askSitesNotKept(api, rows, cachedSites, stop).catch((err: unknown) => notAsked(String(err)));
}

/**
 * The rows with the usernames derived for new people, and what main says of them: derived again, once, past any
 * derived name someone at a site not kept holds. Null: stopped.
 */
async function derivedAndChecked(
  api: FieldbookApi | null,
  keepsSome: boolean,
  rows: ImportRow[],
  inputs: PlanInputs,
  stop: () => boolean,
): Promise<{ rows: ImportRow[]; notKept: SitesNotKept } | null> {
  const derive = {
    users: inputs.users,
    siteid: inputs.siteid,
    key: inputs.key,
    rule: inputs.hr.usernameRule,
  };
  const first = withDerivedUsernames(rows, derive);
  const notKept = await sitesNotKept(api, keepsSome, first, inputs.cachedSites, stop);
  if (!notKept || !first.some((r) => r.derived && notKept.username.has(r.derived)))
    return notKept && { rows: first, notKept };
  const again = withDerivedUsernames(rows, { ...derive, heldElsewhere: notKept.username });
  const checked = await sitesNotKept(api, keepsSome, again, inputs.cachedSites, stop);
  return checked && { rows: again, notKept: checked };
}

/**
 * The cached people of the site indexed as soon as they are read and the site known, before a file is dropped (and
 * while the worker reads it): the preview's plan then starts on the file's rows.
 */
export function useWarmPeopleIndex(
  users: readonly UserRecord[],
  siteid: number | null,
  emails: EmailsByUser | undefined,
): void {
  useEffect(() => {
    if (siteid !== null && emails) warmPeopleIndex(users, siteid, emails);
  }, [users, siteid, emails]);
}

/**
 * `current`: the plans of exactly these inputs; `shown`: those, or while they are made the last plans of the same
 * sheet.
 */
export function useImportPlans(
  inputs: PlanInputs | null,
  sheet: Sheet | null,
): { current: RowPlan[] | null; shown: RowPlan[] | null; notKept: SitesNotKept | null } {
  const api = useSession((s) => s.api);
  // a profile that keeps every site holds every username and e-mail in the cache: nothing to ask main
  const keepsSome = useSession((s) => s.activeProfile?.keptSites !== undefined);
  // a sync that ended may have read the other sites' usernames and e-mails again: main is asked again (and the rows
  // planned again)
  const syncEnded = useSyncState((s) => (keepsSome ? s.finished : null));
  const [planned, setPlanned] = useState<{
    inputs: PlanInputs;
    plans: RowPlan[];
    notKept: SitesNotKept;
  } | null>(null);
  useEffect(() => {
    if (!inputs) return;
    let stopped = false;
    const stop = () => stopped;
    const options: MatchOptions = {
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
    void rowsInSlices(inputs.sheet, inputs.mapping, inputs.padIds, stop)
      .then(async (rows) => {
        if (!rows) return null;
        const checked = await derivedAndChecked(api, keepsSome, rows, inputs, stop);
        if (!checked) return null;
        const { notKept } = checked;
        const plans = await planImportInSlices(
          checked.rows,
          inputs.users,
          inputs.siteid,
          inputs.emails,
          { ...options, notKept },
          stop,
        );
        return plans && { plans, notKept };
      })
      .then((done) => {
        if (done && !stopped) setPlanned({ inputs, ...done });
      });
    return () => {
      stopped = true;
    };
  }, [inputs, api, keepsSome, syncEnded]);
  return useMemo(() => {
    // plans of other settings (or another file) are never shown as these, nor queued
    const current = planned && planned.inputs === inputs ? planned.plans : null;
    const notKept = planned && planned.inputs === inputs ? planned.notKept : null;
    // while settings change, the last preview of the same file stays in view (marked as being updated)
    return {
      current,
      notKept,
      shown: current ?? (planned && planned.inputs.sheet === sheet ? planned.plans : null),
    };
  }, [planned, inputs, sheet]);
}
