/**
 * The compliance report to take along: for a site, a group or the people
 * chosen in Users. On screen, as CSV and XLSX, and printed: the document
 * below is the print view (print CSS hides the app around it, the table's
 * header repeats on every page); the desktop app saves it as a PDF through
 * `report:savePdf`. Everything from the cache: works offline.
 */
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { todayIso } from '../../../shared/dates.ts';
import type { AppError } from '../../../shared/ipc.ts';
import { PDF_PAGE_SIZES, type PdfPageSize } from '../../../shared/report-pdf.ts';
import { sessionStore, useActiveDb } from '../../app/session.ts';
import { formatCount, formatDate, formatDateTime } from '../../app/format.ts';
import { useSoonDays, useSoonWindow } from '../../app/soon-window.ts';
import { plural } from '../../app/words.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { download } from '../outbox/download.ts';
import { useUserSelection } from '../users/selection.ts';
import { buildReport, type ComplianceReport } from './build.ts';
import { FINDING_TYPES, type FindingType, type ReportOptions } from './model.ts';
import { reportCsv, reportFileName, reportXlsx, type ReportHeading } from './export.ts';
import { ReportDocument } from './ReportDocument.tsx';
import { ReportFindings } from './ReportFindings.tsx';
import { defaultCategory, useReportChoices } from './choices.ts';
import { loadReport, type LoadedReport, type ReportScope } from './queries.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import type { GroupRecord, ProfileCategoryRecord } from '../../../shared/records.ts';
import { groupChoices } from '../../app/catalog.ts';
import { oneSite, SiteChoice, useChosenSite } from '../../app/SiteChoice.tsx';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { ChoiceOptions } from '../../components/ChoiceOptions.tsx';
import { AsOfControl, useAsOfDay } from './AsOfControl.tsx';
import { isAsOf, loadReportAsOf } from './as-of.ts';

type ScopeKind = ReportScope['kind'];

/** CSV, XLSX and the PDF saved by the desktop app, with the error or the saved file's name. */
function useReportOutput(
  report: ComplianceReport | null,
  heading: ReportHeading,
  today: string,
  pageSize: PdfPageSize,
) {
  const { title } = heading;
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const exportAs = async (format: 'csv' | 'xlsx') => {
    if (!report) return;
    const blob =
      format === 'csv'
        ? new Blob(['\uFEFF', reportCsv(report)], { type: 'text/csv;charset=utf-8' })
        : await reportXlsx(report, heading);
    download(blob, reportFileName(title, today, format));
  };
  const savePdf = async () => {
    setSaved(null);
    const api = sessionStore.getState().api;
    if (!api) return;
    const result = await api['report:savePdf']({ pageSize, fileName: `${title} ${today}` });
    if (!result.ok) setError(result.error);
    else if (result.value.saved) setSaved(result.value.fileName ?? 'the PDF');
  };

  return { exportAs, savePdf, error, setError, saved };
}

/** "Riverside Plant · grouped by Role · Active people · all findings · soon = 30 days" */
function choicesLine(
  scopeLabel: string,
  categoryName: string | null,
  statuses: readonly string[],
  types: readonly FindingType[],
  all: readonly FindingType[],
  soonDays: number,
): string {
  const grouping = categoryName ? `grouped by ${categoryName}` : 'not grouped';
  const people = statuses.length === 0 ? 'no status chosen' : `${statuses.join(', ')} people`;
  const findings =
    types.length === all.length
      ? 'all findings'
      : types.length === 0
        ? 'no findings chosen'
        : types.join(', ');
  return `${scopeLabel} · ${grouping} · ${people} · ${findings} · soon = within ${plural(soonDays, 'day')}`;
}

/** One report per input and choices: the findings list keeps its selection while nothing changes. */
function useBuiltReport(
  loaded: LoadedReport | null | undefined,
  options: ReportOptions,
): ComplianceReport | null {
  const { today, soonDays, categoryid, statuses, findingTypes } = options;
  return useMemo(
    () =>
      loaded ? buildReport(loaded.input, { today, soonDays, categoryid, statuses, findingTypes }) : null,
    [loaded, today, soonDays, categoryid, statuses, findingTypes],
  );
}

/** What the report covers: the site, the group or the people chosen in Users; null until one is chosen. */
function scopeOf(
  kind: ScopeKind,
  site: number | null,
  groupid: number | null,
  selected: ReadonlySet<number>,
): ReportScope | null {
  if (kind === 'site') return site === null ? null : { kind, siteid: site };
  if (kind === 'group') return groupid === null ? null : { kind, groupid };
  return selected.size > 0 ? { kind, userids: [...selected] } : null;
}

/** The site the scope lies in (the group's site for a group); null for people chosen in Users. */
function scopeSiteOf(
  kind: ScopeKind,
  site: number | null,
  groupid: number | null,
  groups: readonly GroupRecord[] | undefined,
): number | null {
  if (kind === 'site') return site;
  if (kind === 'group') return groups?.find((g) => g.groupid === groupid)?.siteid ?? null;
  return null;
}

/** The grouping chosen when it is still offered, else the one the scope suggests (choices.ts). */
function categoryIdOf(
  chosen: number | null | undefined,
  categories: readonly ProfileCategoryRecord[],
  loaded: LoadedReport | null | undefined,
  groupid: number | null,
): number | null {
  if (chosen === null || (chosen !== undefined && categories.some((c) => c.categoryid === chosen)))
    return chosen;
  return defaultCategory(categories, loaded?.input.groups ?? [], loaded?.input.requirements ?? [], groupid);
}

/** The scope of the current choices and its report input, read from the cache (again when an edit is queued). */
function useLoadedScope() {
  const db = useActiveDb();
  // a past day: the report rebuilt from the history (AsOfControl), its dates counted on that day
  const asOf = useAsOfDay((s) => s.day);
  const selected = useUserSelection((s) => s.selected);
  const groups = useLiveQuery(async () => (db ? db.groups.toArray() : []), [db]);
  const choices = useReportChoices();
  const { kind, groupid } = choices;
  // the site the coordinator looks after (the first when every site is chosen: a report is of one)
  const chosen = useChosenSite();
  const site = oneSite(chosen);
  const scope = scopeOf(kind, site, groupid, selected);
  const scopeKey = JSON.stringify(scope);
  const pendingVersion = usePendingVersion();
  const loaded = useLiveQuery(
    async () => (db && scope ? (asOf ? loadReportAsOf(db, scope, asOf) : loadReport(db, scope)) : null),
    [db, scopeKey, pendingVersion, asOf],
  );
  return { choices, selected, chosen, groups, site, loaded, asOf };
}

/** The report of the current choices, from the cache, with what its controls offer. */
function useReport() {
  const { choices, selected, chosen, groups, site, loaded, asOf } = useLoadedScope();
  const today = asOf ?? todayIso();
  const soonDays = useSoonDays();
  const { kind, groupid } = choices;
  const scopeSite = scopeSiteOf(kind, site, groupid, groups);
  const categories = (loaded?.input.categories ?? [])
    .filter((c) => scopeSite === null || c.siteid === scopeSite)
    .sort((a, b) => a.categoryname.localeCompare(b.categoryname));
  const categoryid = categoryIdOf(choices.categoryid, categories, loaded, kind === 'group' ? groupid : null);
  const { statuses: chosenStatuses, findingTypes } = choices;
  const report = useBuiltReport(loaded, {
    today,
    soonDays,
    categoryid,
    statuses: chosenStatuses,
    findingTypes,
  });
  const offered =
    loaded && loaded.input.requirements.length > 0
      ? FINDING_TYPES
      : FINDING_TYPES.filter((t) => t !== 'Missing');
  const title = loaded ? `Compliance report – ${loaded.scopeLabel}` : 'Compliance report';
  const categoryName = categories.find((c) => c.categoryid === categoryid)?.categoryname ?? null;
  const scopeLabel = loaded?.scopeLabel ?? '';
  const types = report?.findingTypes ?? [];
  const heading: ReportHeading = {
    title,
    scope: scopeLabel,
    filters: choicesLine(scopeLabel, categoryName, chosenStatuses, types, offered, soonDays),
    dataAsOf: dataAsOfWords(loaded),
  };
  const statuses = [...new Set((loaded?.input.people ?? []).map((p) => p.status))].sort();
  const offer = { categories, categoryid, statuses, offered };
  return { today, soonDays, selected, chosen, groups, loaded, report, heading, offer };
}

/** The heading's "data as of": the sync the report shows; a past day the history does not reach has none. */
function dataAsOfWords(loaded: LoadedReport | null | undefined): string {
  if (loaded?.dataAsOf) return formatDateTime(loaded.dataAsOf);
  return loaded && isAsOf(loaded) ? 'no sync kept for that day' : 'never synced';
}

type ReportState = ReturnType<typeof useReport>;

function ScopeControls({ state }: { state: ReportState }) {
  const choices = useReportChoices();
  const { kind, groupid } = choices;
  const { chosen, groups, selected, offer } = state;
  const catalog = useCatalogNames(useActiveDb());
  return (
    <>
      <label>
        Report on{' '}
        <select value={kind} onChange={(e) => choices.set({ kind: e.target.value as ScopeKind })}>
          <option value="site">A site</option>
          <option value="group">A profile group</option>
          <option value="people">The people chosen in Users ({formatCount(selected.size)})</option>
        </select>
      </label>
      {kind === 'site' && (
        <SiteChoice
          chosen={chosen}
          everySite={false}
          onChoose={() => choices.set({ categoryid: undefined })}
        />
      )}
      {kind === 'group' && (
        <label>
          Group{' '}
          <select
            value={groupid ?? ''}
            onChange={(e) =>
              choices.set({ groupid: e.target.value ? Number(e.target.value) : null, categoryid: undefined })
            }
          >
            <option value="">Choose a group</option>
            {groups && <ChoiceOptions groups={groupChoices(groups, catalog, chosen.siteid)} />}
          </select>
        </label>
      )}
      <label>
        Group by{' '}
        <select
          value={offer.categoryid ?? ''}
          onChange={(e) => choices.set({ categoryid: e.target.value ? Number(e.target.value) : null })}
        >
          {offer.categories.map((c) => (
            <option key={c.categoryid} value={c.categoryid}>
              {c.categoryname}
            </option>
          ))}
          <option value="">No grouping</option>
        </select>
      </label>
    </>
  );
}

function FilterControls({ state }: { state: ReportState }) {
  const choices = useReportChoices();
  const setSoonDays = useSoonWindow((s) => s.setDays);
  const { offer, soonDays } = state;
  return (
    <div className="toolbar no-print">
      <fieldset className="report-choice">
        <legend>People</legend>
        {(offer.statuses.length > 0 ? offer.statuses : ['Active']).map((status) => (
          <label key={status}>
            <input
              type="checkbox"
              checked={choices.statuses.includes(status)}
              onChange={(e) => choices.set({ statuses: toggled(choices.statuses, status, e.target.checked) })}
            />{' '}
            {status}
          </label>
        ))}
      </fieldset>
      <fieldset className="report-choice">
        <legend>Findings</legend>
        {offer.offered.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={choices.findingTypes.includes(type)}
              onChange={(e) =>
                choices.set({ findingTypes: toggled(choices.findingTypes, type, e.target.checked) })
              }
            />{' '}
            {type}
          </label>
        ))}
      </fieldset>
      <label>
        Soon = within (days){' '}
        <input
          type="number"
          min={1}
          max={365}
          value={soonDays}
          onChange={(e) => {
            // a box being cleared to type a new number keeps the window until the number is whole
            const days = Number(e.target.value);
            if (Number.isInteger(days) && days >= 1) setSoonDays(days);
          }}
        />
      </label>
      <p>The one “soon” window: every view uses it.</p>
    </div>
  );
}

export default function ReportView() {
  const state = useReport();
  const { today, loaded, report, heading, selected } = state;
  const choices = useReportChoices();
  const { pageSize, kind, groupid } = choices;
  const { exportAs, savePdf, error, setError, saved } = useReportOutput(report, heading, today, pageSize);
  return (
    <section className="view report-view" aria-labelledby="report-heading">
      <h1 id="report-heading" className="no-print">
        Compliance report
      </h1>
      <div className="toolbar no-print">
        <ScopeControls state={state} />
        <AsOfControl />
        <label>
          Paper{' '}
          <select value={pageSize} onChange={(e) => choices.set({ pageSize: e.target.value as PdfPageSize })}>
            {PDF_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!report} onClick={() => void exportAs('csv')}>
          Export CSV
        </button>
        <button type="button" disabled={!report} onClick={() => void exportAs('xlsx')}>
          Export XLSX
        </button>
        <button type="button" disabled={!report} onClick={() => void savePdf()}>
          Save as PDF…
        </button>
        <button type="button" disabled={!report} onClick={() => window.print()}>
          Print…
        </button>
      </div>
      <FilterControls state={state} />
      <div className="no-print">
        <ErrorMessage error={error} onDismiss={() => setError(null)} />
        {saved && <p role="status">Saved as {saved}.</p>}
        {kind === 'people' && selected.size === 0 && (
          <p>Choose people in Users first (select them in the list), then come back.</p>
        )}
        {kind === 'group' && groupid === null && <p>Choose a group.</p>}
      </div>
      {/* acting on findings is for today's: a past day's people are shown, not acted on */}
      {loaded && report && !isAsOf(loaded) && <ReportFindings report={report} />}
      {loaded && report && (
        <ReportDocument
          report={report}
          pageSize={pageSize}
          heading={{
            title: heading.title,
            choices: heading.filters,
            dataAsOf: heading.dataAsOf,
            printed: formatDate(todayIso()),
            ...(isAsOf(loaded) ? { asOf: formatDate(today), history: loaded.history } : {}),
            pendingIncluded: loaded.pendingIncluded,
            pendingInOutbox: loaded.pendingInOutbox,
          }}
        />
      )}
    </section>
  );
}

function toggled<T>(list: readonly T[], value: T, on: boolean): T[] {
  return on ? [...new Set([...list, value])] : list.filter((v) => v !== value);
}
