/**
 * The report's choices, kept while the coordinator goes to Requirements and
 * back (this window and this profile only). Active people and every finding type by default.
 */
import { create } from 'zustand';
import { profileStore } from '../../app/profile-stores.ts';
import type { GroupRecord, ProfileCategoryRecord } from '../../../shared/records.ts';
import type { PdfPageSize } from '../../../shared/report-pdf.ts';
import type { RequirementRow } from '../requirements/model.ts';
import { FINDING_TYPES, type FindingType } from './model.ts';
import type { ReportScope } from './queries.ts';

export interface ReportChoices {
  kind: ReportScope['kind'];
  groupid: number | null;
  /** undefined: the default category (defaultCategory); null: no grouping */
  categoryid: number | null | undefined;
  statuses: string[];
  findingTypes: FindingType[];
  pageSize: PdfPageSize;
}

export const useReportChoices = profileStore(
  create<ReportChoices & { set(patch: Partial<ReportChoices>): void }>((set) => ({
    kind: 'site',
    groupid: null,
    categoryid: undefined,
    statuses: ['Active'],
    findingTypes: [...FINDING_TYPES],
    pageSize: 'A4',
    set: (patch) => set(patch),
  })),
);

/**
 * The category to group by when none is chosen: a group report's own category;
 * else the category whose groups carry the most requirements; else the first by name.
 */
export function defaultCategory(
  categories: readonly ProfileCategoryRecord[],
  groups: readonly GroupRecord[],
  requirements: readonly RequirementRow[],
  groupid: number | null,
): number | null {
  if (categories.length === 0) return null;
  const own = groups.find((g) => g.groupid === groupid);
  if (own && categories.some((c) => c.categoryid === own.categoryid)) return own.categoryid;
  const categoryOf = new Map(groups.map((g) => [`group:${g.groupid}`, g.categoryid]));
  const weight = new Map<number, number>();
  for (const r of requirements) {
    const c = categoryOf.get(r.scope);
    if (c !== undefined) weight.set(c, (weight.get(c) ?? 0) + 1);
  }
  const sorted = [...categories].sort(
    (a, b) =>
      (weight.get(b.categoryid) ?? 0) - (weight.get(a.categoryid) ?? 0) ||
      a.categoryname.localeCompare(b.categoryname),
  );
  return sorted[0]!.categoryid;
}
