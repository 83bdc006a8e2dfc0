/**
 * The rows of the sheet planned against the people on the site, a slice at a
 * time (the window stays responsive on 200,000 rows), again whenever a setting
 * changes; plans of other settings are never the current ones.
 */
import { useEffect, useMemo, useState } from 'react';
import type { Sheet } from './header.ts';
import type { ColumnMapping } from './mapping.ts';
import { planImportInSlices, type EmailsByUser, type GroupRef, type ImportMode, type MatchKey, type MatchOptions, type RowPlan } from './match.ts';
import { rowsInSlices } from './rows.ts';
import type { UserRecord } from '../../../shared/records.ts';

export interface PlanInputs {
  sheet: Sheet;
  mapping: ColumnMapping;
  users: readonly UserRecord[];
  siteid: number;
  emails: EmailsByUser;
  key: MatchKey;
  mode: ImportMode;
  groups: ReadonlyMap<string, GroupRef>;
  dateOrder: MatchOptions['dateOrder'];
  requires: NonNullable<MatchOptions['requires']>;
  /** the width employee ids are padded to with zeros; null: as written */
  padIds: number | null;
}

/** `current`: the plans of exactly these inputs; `shown`: those, or while they are made the last plans of the same sheet. */
export function useImportPlans(inputs: PlanInputs | null, sheet: Sheet | null): { current: RowPlan[] | null; shown: RowPlan[] | null } {
  const [planned, setPlanned] = useState<{ inputs: PlanInputs; plans: RowPlan[] } | null>(null);
  useEffect(() => {
    if (!inputs) return;
    let stopped = false;
    const stop = () => stopped;
    const options: MatchOptions = { key: inputs.key, mode: inputs.mode, groups: inputs.groups, requires: inputs.requires, ...(inputs.dateOrder ? { dateOrder: inputs.dateOrder } : {}) };
    void rowsInSlices(inputs.sheet, inputs.mapping, inputs.padIds, stop)
      .then((rows) => (rows ? planImportInSlices(rows, inputs.users, inputs.siteid, inputs.emails, options, stop) : null))
      .then((plans) => {
        if (plans && !stopped) setPlanned({ inputs, plans });
      });
    return () => {
      stopped = true;
    };
  }, [inputs]);
  return useMemo(() => {
    // plans of other settings (or another file) are never shown as these, nor queued
    const current = planned && planned.inputs === inputs ? planned.plans : null;
    // while settings change, the last preview of the same file stays in view (marked as being updated)
    return { current, shown: current ?? (planned && planned.inputs.sheet === sheet ? planned.plans : null) };
  }, [planned, inputs, sheet]);
}
