/**
 * The compliance report to take along: for a site, a group or the people
 * chosen in Users. On screen, as CSV and XLSX, and printed: the document
 * below is the print view (print CSS hides the app around it, the table's
 * header repeats on every page); the desktop app saves it as a PDF through
 * `report:savePdf`. Everything from the cache: works offline.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { todayIso } from '../../../shared/dates.ts';
import type { AppError } from '../../../shared/ipc.ts';
import { PDF_PAGE_SIZES, type PdfPageSize } from '../../../shared/report-pdf.ts';
import { sessionStore, useActiveDb } from '../../app/session.ts';
import { formatCount, formatDate, formatDateTime } from '../../app/format.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { download } from '../outbox/download.ts';
import { useUserSelection } from '../users/selection.ts';
import { buildReport, ISSUES } from './model.ts';
import { reportCsv, reportFileName, reportXlsx } from './export.ts';
import { loadReport, type LoadedReport, type ReportScope } from './queries.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';

type ScopeKind = ReportScope['kind'];

/** CSV, XLSX and the PDF saved by the desktop app, with the error or the saved file's name. */
function useReportOutput(report: ReturnType<typeof buildReport> | null, title: string, today: string, pageSize: PdfPageSize) {
  const [error, setError] = useState<AppError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const exportAs = async (format: 'csv' | 'xlsx') => {
    if (!report) return;
    const blob = format === 'csv' ? new Blob([reportCsv(report)], { type: 'text/csv;charset=utf-8' }) : await reportXlsx(report);
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

export default function ReportView() {
  const db = useActiveDb();
  const today = todayIso();
  const selected = useUserSelection((s) => s.selected);
  const sites = useLiveQuery(async () => (db ? db.sites.toArray() : []), [db]);
  const groups = useLiveQuery(async () => (db ? db.groups.toArray() : []), [db]);
  const [kind, setKind] = useState<ScopeKind>('site');
  const [siteid, setSiteid] = useState<number | null>(null);
  const [groupid, setGroupid] = useState<number | null>(null);
  const [pageSize, setPageSize] = useState<PdfPageSize>('A4');
  const site = siteid ?? sites?.[0]?.siteid ?? null;
  const scope: ReportScope | null =
    kind === 'site' ? (site === null ? null : { kind, siteid: site }) : kind === 'group' ? (groupid === null ? null : { kind, groupid }) : selected.size > 0 ? { kind, userids: [...selected] } : null;
  const scopeKey = JSON.stringify(scope);
  const pendingVersion = usePendingVersion();
  const loaded = useLiveQuery(async () => (db && scope ? loadReport(db, scope, today) : null), [db, scopeKey, today, pendingVersion]);
  const report = loaded ? buildReport(loaded.input) : null;
  const title = loaded ? `Compliance report – ${loaded.scopeLabel}` : 'Compliance report';

  const { exportAs, savePdf, error, setError, saved } = useReportOutput(report, title, today, pageSize);
  return (
    <section className="view report-view" aria-labelledby="report-heading">
      <h1 id="report-heading" className="no-print">Compliance report</h1>
      <div className="toolbar no-print">
        <label>
          Report on{' '}
          <select value={kind} onChange={(e) => setKind(e.target.value as ScopeKind)}>
            <option value="site">a site</option>
            <option value="group">a profile group</option>
            <option value="people">the people chosen in Users ({formatCount(selected.size)})</option>
          </select>
        </label>
        {kind === 'site' && (
          <label>
            Site{' '}
            <select value={site ?? ''} onChange={(e) => setSiteid(Number(e.target.value))}>
              {sites?.map((s) => <option key={s.siteid} value={s.siteid}>{s.sitename}</option>)}
            </select>
          </label>
        )}
        {kind === 'group' && (
          <label>
            Group{' '}
            <select value={groupid ?? ''} onChange={(e) => setGroupid(e.target.value ? Number(e.target.value) : null)}>
              <option value="">Choose a group</option>
              {groups?.map((g) => <option key={g.groupid} value={g.groupid}>{g.groupname}</option>)}
            </select>
          </label>
        )}
        <label>
          Paper{' '}
          <select value={pageSize} onChange={(e) => setPageSize(e.target.value as PdfPageSize)}>
            {PDF_PAGE_SIZES.map((size) => <option key={size} value={size}>{size}</option>)}
          </select>
        </label>
        <button type="button" disabled={!report} onClick={() => void exportAs('csv')}>Export CSV</button>
        <button type="button" disabled={!report} onClick={() => void exportAs('xlsx')}>Export XLSX</button>
        <button type="button" disabled={!report} onClick={() => void savePdf()}>Save as PDF…</button>
        <button type="button" disabled={!report} onClick={() => window.print()}>Print…</button>
      </div>
      <div className="no-print">
        <ErrorMessage error={error} onDismiss={() => setError(null)} />
        {saved && <p role="status">Saved as {saved}.</p>}
        {kind === 'people' && selected.size === 0 && <p>Choose people in Users first (select them in the list), then come back.</p>}
        {kind === 'group' && groupid === null && <p>Choose a group.</p>}
      </div>
      {loaded && report && <ReportDocument loaded={loaded} report={report} title={title} today={today} pageSize={pageSize} />}
    </section>
  );
}

/** The printed document: heading, totals per group and the findings. */
function ReportDocument({ loaded, report, title, today, pageSize }: { loaded: LoadedReport; report: ReturnType<typeof buildReport>; title: string; today: string; pageSize: PdfPageSize }) {
  return (
    <article className={`report-print page-${pageSize.toLowerCase()}`} aria-label="Report">
      <header>
        <h2>{title}</h2>
        <p>
          {loaded.scopeLabel} · {formatCount(report.overall.people)} people · printed {formatDate(today)} · data as of {loaded.dataAsOf ? formatDateTime(loaded.dataAsOf) : 'never synced'}
        </p>
        {loaded.pendingIncluded > 0 && (
          <p className="report-pending">Includes {formatCount(loaded.pendingIncluded)} {loaded.pendingIncluded === 1 ? 'change' : 'changes'} still waiting in the Outbox, not yet on the platform.</p>
        )}
      </header>
      <table className="report-table" aria-label="Totals per group">
        <thead>
          <tr>
            <th scope="col">Group</th>
            <th scope="col">People</th>
            {ISSUES.map((issue) => <th key={issue} scope="col">{issue}</th>)}
          </tr>
        </thead>
        <tbody>
          {[...report.totals, report.overall].map((t) => (
            <tr key={t.group}>
              <th scope="row">{t.group === 'All' ? 'All (each person once)' : t.group}</th>
              <td>{formatCount(t.people)}</td>
              {ISSUES.map((issue) => <td key={issue}>{formatCount(t[issue])}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
      {report.lines.length === 0 ? (
        <p>Nothing to report: no credential expired or expiring within 90 days, none missing, no training overdue or due soon.</p>
      ) : (
        <table className="report-table" aria-label="Findings">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">Person</th>
              <th scope="col">Finding</th>
              <th scope="col">Credential or course</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {report.lines.map((l, i) => (
              <tr key={i}>
                <td>{l.group}</td>
                <td>{l.person}</td>
                <td>{l.issue}</td>
                <td>{l.item}</td>
                <td>{l.date ? formatDate(l.date) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
