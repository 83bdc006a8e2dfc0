/**
 * The printed report: page 1 is what a site manager reads (title, scope and
 * choices, data as of, the summary); then one table per group, one row per
 * person; then the per-credential summary. Print CSS (styles.css) repeats each
 * table's header on every page and never breaks a word or a date.
 */
import { Fragment } from 'react';
import { formatCount, formatDate } from '../../app/format.ts';
import { hrefFor } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import type { ComplianceReport } from './build.ts';
import type { Finding, FindingType, ReportRow } from './model.ts';

const percent = (n: number, of: number) => `${of === 0 ? 0 : Math.round((n / of) * 100)} %`;

/** Short labels of a row's findings, grouped by type. */
const SHORT: Record<FindingType, string> = {
  Missing: 'Missing',
  Expired: 'Expired',
  'Training overdue': 'Overdue',
  'Expires soon': 'Expires soon',
  'Training due soon': 'Due soon',
};

export interface DocumentHeading {
  title: string;
  /** "Riverside Plant · grouped by Role · Active people · all findings · soon = 30 days" */
  choices: string;
  dataAsOf: string;
  printed: string;
  /** the Outbox's changes the report shows, and all the Outbox holds (its tab's number) */
  pendingIncluded: number;
  pendingInOutbox: number;
  /** a report as of a past day: the day, and how it was rebuilt from the history (as-of.ts) */
  asOf?: string;
  history?: string[];
}

/**
 * The changes not yet on the platform that the report includes, counted as the Outbox
 * counts them (its tab's number), so the two never seem to disagree:
 * "Includes 33 of the 38 changes in the Outbox, not yet on the platform; the other 5 …".
 */
export function pendingNote(included: number, inOutbox: number): string | null {
  if (included === 0) return null;
  if (included >= inOutbox)
    return `Includes ${inOutbox <= 1 ? 'the change' : `all ${plural(inOutbox, 'change')}`} in the Outbox, not yet on the platform.`;
  const others = inOutbox - included;
  return (
    `Includes ${formatCount(included)} of the ${plural(inOutbox, 'change')} in the Outbox, not yet on the platform; ` +
    `${others === 1 ? 'the other one is' : `the other ${formatCount(others)} are`} about what this report does not show (access, e-mails, other people).`
  );
}

function FindingsCell({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return <span className="report-ok">Nothing to report</span>;
  const types = [...new Set(findings.map((f) => f.type))];
  return (
    <>
      {types.map((type, t) => (
        <Fragment key={type}>
          {t > 0 && ' · '}
          <strong>{SHORT[type]}:</strong>{' '}
          {findings
            .filter((f) => f.type === type)
            .map((f, i) => (
              <Fragment key={`${f.itemKey}-${i}`}>
                {i > 0 && ', '}
                {f.item}
                {f.date && (
                  <>
                    {' '}
                    <span className="nowrap">({formatDate(f.date)})</span>
                  </>
                )}
              </Fragment>
            ))}
        </Fragment>
      ))}
    </>
  );
}

function PersonRow({ row }: { row: ReportRow }) {
  return (
    <tr className={row.compliant ? undefined : 'report-not-compliant'}>
      <td>
        <a href={hrefFor('users', row.userid)}>{row.person}</a>
        {row.alsoIn.length > 0 && <span className="report-also"> (also in {row.alsoIn.join(', ')})</span>}
      </td>
      <td className="nowrap">{row.employeeid}</td>
      <td>
        <FindingsCell findings={row.findings} />
      </td>
    </tr>
  );
}

function Summary({ report }: { report: ComplianceReport }) {
  return (
    <section className="report-summary" aria-label="Summary">
      <p className="report-headline">
        <strong>{plural(report.people, 'person', 'people')}</strong> in scope ·{' '}
        <strong>{formatCount(report.compliant)} compliant</strong> ({percent(report.compliant, report.people)}
        ): nothing {report.hasRequirements ? 'missing, expired or overdue' : 'expired or overdue'}
      </p>
      {!report.hasRequirements && (
        <p className="report-note">
          No requirements are set, so this report cannot say who is missing a credential or a course. Set what
          each group must hold in Requirements (on this laptop only).
        </p>
      )}
      <div className="report-summary-tables">
        <table className="report-table" aria-label="Compliance per group">
          <thead>
            <tr>
              <th scope="col">Group</th>
              <th scope="col">People</th>
              <th scope="col">Compliant</th>
              <th scope="col">%</th>
            </tr>
          </thead>
          <tbody>
            {report.sections.map((s) => (
              <tr key={s.group}>
                <th scope="row">{s.group}</th>
                <td>{formatCount(s.rows.length)}</td>
                <td>{formatCount(s.compliant)}</td>
                <td className="nowrap">{percent(s.compliant, s.rows.length)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <table className="report-table" aria-label="Findings by type">
            <thead>
              <tr>
                <th scope="col">Finding</th>
                <th scope="col">People</th>
                <th scope="col">Findings</th>
              </tr>
            </thead>
            <tbody>
              {report.findingsByType.map((f) => (
                <tr key={f.type}>
                  <th scope="row">{f.type}</th>
                  <td>{formatCount(f.people)}</td>
                  <td>{formatCount(f.findings)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.mostAffected.length > 0 && (
            <table className="report-table" aria-label="Most people affected">
              <thead>
                <tr>
                  <th scope="col">Credential or course</th>
                  <th scope="col">People affected</th>
                </tr>
              </thead>
              <tbody>
                {report.mostAffected.map((m) => (
                  <tr key={m.item}>
                    <th scope="row">{m.item}</th>
                    <td>{formatCount(m.people)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </div>
    </section>
  );
}

function ByCredential({ report }: { report: ComplianceReport }) {
  if (report.byCredential.length === 0) return null;
  return (
    <section className="report-by-credential">
      <h3>By credential</h3>
      <table className="report-table" aria-label="By credential">
        <thead>
          <tr>
            <th scope="col">Credential</th>
            <th scope="col">Holders</th>
            <th scope="col">Not expired</th>
            <th scope="col">Expiring ≤ 30 days</th>
            <th scope="col">31–60 days</th>
            <th scope="col">61–90 days</th>
            <th scope="col">Expired</th>
            {report.hasRequirements && (
              <>
                <th scope="col">Required of</th>
                <th scope="col">Missing</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {report.byCredential.map((c) => (
            <tr key={c.credential}>
              <th scope="row">{c.credential}</th>
              <td>{formatCount(c.holders)}</td>
              <td>{formatCount(c.valid)}</td>
              <td>{formatCount(c.within30)}</td>
              <td>{formatCount(c.within60)}</td>
              <td>{formatCount(c.within90)}</td>
              <td>{formatCount(c.expired)}</td>
              {report.hasRequirements && (
                <>
                  <td>{formatCount(c.required)}</td>
                  <td>{formatCount(c.missing)}</td>
                </>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Page 1 of a report as of a past day: which day, and how the history rebuilt it. */
function AsOfNote({ day, lines }: { day: string; lines: readonly string[] }) {
  return (
    <div className="report-as-of">
      <p>
        <strong>As of {day}</strong>
      </p>
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

export function ReportDocument({
  report,
  heading,
  pageSize,
}: {
  report: ComplianceReport;
  heading: DocumentHeading;
  pageSize: string;
}) {
  return (
    <article className={`report-print page-${pageSize.toLowerCase()}`} aria-label="Report">
      <header>
        <h2>{heading.title}</h2>
        <p>{heading.choices}</p>
        <p>
          Printed {heading.printed} · data as of {heading.dataAsOf}
        </p>
        {heading.asOf && <AsOfNote day={heading.asOf} lines={heading.history ?? []} />}
        {heading.pendingIncluded > 0 && (
          <p className="report-pending">{pendingNote(heading.pendingIncluded, heading.pendingInOutbox)}</p>
        )}
      </header>
      <Summary report={report} />
      {report.sections.map((s) => (
        <section key={s.group} className="report-section">
          <h3>
            {s.group}{' '}
            <span className="report-section-count">
              · {plural(s.rows.length, 'person', 'people')}, {formatCount(s.compliant)} compliant
            </span>
          </h3>
          <table className="report-table report-people" aria-label={`People in ${s.group}`}>
            <thead>
              <tr>
                <th scope="col">Person</th>
                <th scope="col">Employee ID</th>
                <th scope="col">Findings</th>
              </tr>
            </thead>
            <tbody>
              {s.rows.map((r) => (
                <PersonRow key={r.userid} row={r} />
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <ByCredential report={report} />
    </article>
  );
}
