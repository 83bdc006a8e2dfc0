/**
 * The compliance picture at a glance. Loaded lazily (recharts is the heaviest
 * dependency), so start-up does not pay for it. Each chart has its numbers
 * beside it as a table, for screen readers and for reading exact values.
 */
import { useState, type MouseEvent } from 'react';
import { useSyncState } from '../../sync/store.ts';
import { useSettledLiveQuery } from './settled-query.ts';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { todayIso } from '../../../shared/dates.ts';
import { useActiveDb } from '../../app/session.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { formatCount, formatDate } from '../../app/format.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { shortLabel } from './chart-labels.ts';
import { useSoonDays } from '../../app/soon-window.ts';
import {
  attentionFigures,
  credentialsExpiringByWeek,
  overdueTrainingByCourse,
  pendingInFigures,
  userStatusBreakdown,
  type FiguresOf,
} from './queries.ts';
import { PendingInFigures } from './PendingInFigures.tsx';
import {
  AttentionFiguresList,
  FigureLink,
  openUsersWithStatus,
  overdueHref,
  showUsersWithStatus,
  siteParams,
} from './Figures.tsx';
import { SiteChoice, useChosenSite } from '../../app/SiteChoice.tsx';
import { ChangesSummary, LastSyncImpact } from '../changes/ChangesSummary.tsx';
import { MEANING_COLOUR, statusColour } from './colours.ts';
import { NO_NAME } from '../../app/words.ts';
import { ComplianceTrend } from './ComplianceTrend.tsx';

/** The chart's key: each colour with what it stands for and its number, a link to the list it counts. */
function Legend({
  label,
  rows,
}: {
  label: string;
  rows: { label: string; value: number; colour: string; href: string; onOpen?: (e: MouseEvent) => void }[];
}) {
  return (
    <ul className="legend" aria-label={label}>
      {rows.map((r) => (
        <li key={r.label}>
          <span className="swatch" aria-hidden="true" style={{ background: r.colour }} />{' '}
          <FigureLink href={r.href} value={r.value} label={r.label} onOpen={r.onOpen} />
        </li>
      ))}
    </ul>
  );
}

function DataTable({
  caption,
  rows,
}: {
  caption: string;
  rows: { label: string; value: number; href?: string }[];
}) {
  return (
    <table className="chart-table">
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}>
            <th scope="row">{r.href ? <a href={r.href}>{r.label}</a> : r.label}</th>
            <td>{formatCount(r.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const TOP_COURSES = 10;
const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

type WeekRow = { weekStart: string; label: string; short: string; value: number; href: string };

/**
 * Each bar opens the holders expiring that week (a link in the table of numbers, for the keyboard); its count stands
 * on it.
 */
function ExpiringCard({ weeks, siteid }: { weeks: WeekRow[] | undefined; siteid: number | null }) {
  return (
    <figure className="card" aria-labelledby="chart-expiring">
      <figcaption id="chart-expiring">
        Credentials expiring in the next 12 weeks, by week (a bar opens its list)
      </figcaption>
      {weeks === undefined ? (
        <p role="status">Loading…</p>
      ) : (
        <div className="chart">
          <ResponsiveContainer width="100%" height={240}>
            <BarChart data={weeks} margin={{ top: 16, right: 8 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="short" fontSize={11} interval="preserveStartEnd" minTickGap={8} />
              <YAxis allowDecimals={false} fontSize={11} />
              <Tooltip />
              <Bar
                dataKey="value"
                name="Expiring"
                fill={MEANING_COLOUR.expiring}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(d: { payload?: WeekRow }) =>
                  d.payload && navigate('credentials', 'week', d.payload.weekStart, ...siteParams(siteid))
                }
              >
                <LabelList dataKey="value" position="top" fontSize={10} fill="currentColor" />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      <details>
        <summary>
          Numbers<span className="visually-hidden"> of credentials expiring by week</span>
        </summary>
        <DataTable caption="Credentials expiring by week" rows={weeks ?? []} />
      </details>
    </figure>
  );
}

type CourseRow = { courseid: number; label: string; value: number; href: string };

function OverdueCard({
  courses,
  total,
  siteid,
}: {
  courses: CourseRow[] | undefined;
  total: number | undefined;
  siteid: number | null;
}) {
  const top = (courses ?? []).slice(0, TOP_COURSES);
  const chartRows = top.map((c) => ({ ...c, short: shortLabel(c.label) }));
  return (
    <figure className="card" aria-labelledby="chart-overdue">
      <figcaption id="chart-overdue">
        Overdue training by course
        {courses && courses.length > TOP_COURSES
          ? `: the ${TOP_COURSES} of ${formatCount(courses.length)} courses with the most`
          : ''}
      </figcaption>
      {courses === undefined ? (
        <p role="status">Loading…</p>
      ) : courses.length === 0 ? (
        <p>No overdue training.</p>
      ) : (
        <div className="chart" style={{ height: Math.max(120, chartRows.length * 28 + 40) }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chartRows} layout="vertical" margin={{ left: 8, right: 16 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" allowDecimals={false} fontSize={11} />
              <YAxis type="category" dataKey="short" width={180} fontSize={11} interval={0} />
              <Tooltip />
              <Bar
                dataKey="value"
                name="Overdue"
                fill={MEANING_COLOUR.overdue}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(d: { payload?: CourseRow }) =>
                  d.payload && navigate('training', 'course', d.payload.courseid)
                }
              />
            </BarChart>
          </ResponsiveContainer>
        </div>
      )}
      {total !== undefined && (
        <ul className="legend" aria-label="Overdue training: key">
          <li>
            <span className="swatch" aria-hidden="true" style={{ background: MEANING_COLOUR.overdue }} />{' '}
            <FigureLink
              href={overdueHref(siteid)}
              value={total}
              label="overdue training assignments, all courses"
            />
          </li>
        </ul>
      )}
      <details>
        <summary>
          Numbers<span className="visually-hidden"> of overdue training by course</span>
        </summary>
        <DataTable caption="Overdue training by course" rows={courses ?? []} />
      </details>
    </figure>
  );
}

function StatusCard({
  statuses,
  siteid,
}: {
  statuses: { label: string; status: string; value: number; colour: string }[] | undefined;
  siteid: number | null;
}) {
  return (
    <figure className="card" aria-labelledby="chart-status">
      <figcaption id="chart-status">Users by status</figcaption>
      {statuses === undefined ? (
        <p role="status">Loading…</p>
      ) : (
        <div className="chart">
          <ResponsiveContainer width="100%" height={240}>
            <PieChart>
              {/* no labels on the slices (small ones would overlap): the key below has every number */}
              <Pie
                data={statuses}
                dataKey="value"
                nameKey="label"
                outerRadius={90}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(d: { payload?: { status: string } }) =>
                  d.payload && showUsersWithStatus(d.payload.status, siteid)
                }
              >
                {statuses.map((r) => (
                  <Cell key={r.label} fill={r.colour} />
                ))}
              </Pie>
              <Tooltip />
            </PieChart>
          </ResponsiveContainer>
        </div>
      )}
      <Legend
        label="Users by status: key"
        rows={(statuses ?? []).map((r) => ({
          ...r,
          label: `${r.label} users`,
          href: hrefFor('users'),
          onOpen: openUsersWithStatus(r.status, siteid),
        }))}
      />
    </figure>
  );
}

export default function DashboardView() {
  const db = useActiveDb();
  const pendingVersion = usePendingVersion();
  const soonDays = useSoonDays();
  const today = todayIso();
  // the figures include the changes not sent yet, as the lists they open do, unless asked for as the platform holds
  // them
  const [of, setOf] = useState<FiguresOf>('with pending');
  // every figure and the list it opens are of the site the coordinator looks after (remembered per profile)
  const chosen = useChosenSite();
  const { siteid } = chosen;
  const figures = useSettledLiveQuery(
    () => (db ? attentionFigures(db, soonDays, today, of, siteid) : Promise.resolve(undefined)),
    [db, soonDays, today, pendingVersion, of, siteid],
  );
  const weeks = useSettledLiveQuery(
    () => (db ? credentialsExpiringByWeek(db, 12, today, of, siteid) : Promise.resolve([])),
    [db, today, pendingVersion, of, siteid],
  );
  const overdue = useSettledLiveQuery(
    () => (db ? overdueTrainingByCourse(db, Infinity, today, of, siteid) : Promise.resolve([])),
    [db, today, pendingVersion, of, siteid],
  );
  const statuses = useSettledLiveQuery(
    () => (db ? userStatusBreakdown(db, of, siteid) : Promise.resolve([])),
    [db, pendingVersion, of, siteid],
  );
  const included = useSettledLiveQuery(
    () => (db ? pendingInFigures(db) : Promise.resolve(0)),
    [db, pendingVersion],
  );
  const syncing = useSyncState((s) => s.running);
  const weekRows = weeks?.map((w) => ({
    weekStart: w.weekStart,
    label: `Week of ${formatDate(w.weekStart)}`,
    short: shortDate.format(new Date(`${w.weekStart}T00:00:00Z`)),
    value: w.count,
    href: hrefFor('credentials', 'week', w.weekStart, ...siteParams(siteid)),
  }));
  const courseRows = overdue?.map((c) => ({
    courseid: c.courseid,
    label: c.coursename || NO_NAME.course,
    value: c.count,
    href: hrefFor('training', 'course', c.courseid),
  }));
  const statusRows = statuses?.map((s) => ({
    label: s.status || '(no status)',
    status: s.status,
    value: s.count,
    colour: statusColour(s.status),
  }));
  return (
    <section className="view dashboard" aria-labelledby="dashboard-heading">
      <h1 id="dashboard-heading">Dashboard</h1>
      <div className="toolbar dashboard-site">
        <SiteChoice chosen={chosen} />
      </div>
      {syncing && (
        <p className="muted">A sync is running: these figures are brought up to date when it finishes.</p>
      )}
      <LastSyncImpact
        siteid={siteid}
        siteName={(id) => chosen.sites.find((s) => s.siteid === id)?.sitename ?? String(id)}
      />
      <ChangesSummary />
      <PendingInFigures count={included ?? 0} of={of} onChange={setOf} />
      <AttentionFiguresList figures={figures} soonDays={soonDays} siteid={siteid} />
      <div className="cards">
        <OverdueCard courses={courseRows} total={figures?.overdue} siteid={siteid} />
        <ExpiringCard weeks={weekRows} siteid={siteid} />
        <StatusCard statuses={statusRows} siteid={siteid} />
        <ComplianceTrend siteid={siteid} />
      </div>
    </section>
  );
}
