/**
 * The compliance picture at a glance. Loaded lazily (recharts is the heaviest
 * dependency), so start-up does not pay for it. Each chart has its numbers
 * beside it as a table, for screen readers and for reading exact values.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { todayIso } from '../../../shared/dates.ts';
import { useActiveDb } from '../../app/session.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { formatCount, formatDate } from '../../app/format.ts';
import { credentialsExpiringByWeek, overdueTrainingByCourse, userStatusBreakdown } from './queries.ts';
import { ChangesSummary } from '../changes/ChangesSummary.tsx';
import { MEANING_COLOUR, statusColour } from './colours.ts';


/** The chart's key: each colour with what it stands for and its number. */
function Legend({ label, rows }: { label: string; rows: { label: string; value: number; colour: string }[] }) {
  return (
    <ul className="legend" aria-label={label}>
      {rows.map((r) => (
        <li key={r.label}><span className="swatch" aria-hidden="true" style={{ background: r.colour }} /> {r.label}: {formatCount(r.value)}</li>
      ))}
    </ul>
  );
}

function DataTable({ caption, rows }: { caption: string; rows: { label: string; value: number }[] }) {
  return (
    <table className="chart-table">
      <caption>{caption}</caption>
      <tbody>
        {rows.map((r) => (
          <tr key={r.label}><th scope="row">{r.label}</th><td>{formatCount(r.value)}</td></tr>
        ))}
      </tbody>
    </table>
  );
}

export default function DashboardView() {
  const db = useActiveDb();
  const pendingVersion = usePendingVersion();
  const today = todayIso();
  const weeks = useLiveQuery(() => (db ? credentialsExpiringByWeek(db, 12, today) : Promise.resolve([])), [db, today, pendingVersion]);
  const overdue = useLiveQuery(() => (db ? overdueTrainingByCourse(db, 10, today) : Promise.resolve([])), [db, today, pendingVersion]);
  const statuses = useLiveQuery(() => (db ? userStatusBreakdown(db) : Promise.resolve([])), [db, pendingVersion]);
  const weekRows = (weeks ?? []).map((w) => ({ label: `Week of ${formatDate(w.weekStart)}`, short: formatDate(w.weekStart), value: w.count }));
  const overdueRows = (overdue ?? []).map((c) => ({ label: c.coursename || `Course ${c.courseid}`, value: c.count }));
  const statusRows = (statuses ?? []).map((s) => ({ label: s.status || '(none)', value: s.count, colour: statusColour(s.status) }));
  return (
    <section className="view dashboard" aria-labelledby="dashboard-heading">
      <h1 id="dashboard-heading">Dashboard</h1>
      <ChangesSummary />
      <div className="cards">
        <figure className="card" aria-labelledby="chart-expiring">
          <figcaption id="chart-expiring">Credentials expiring by week</figcaption>
          {weeks === undefined ? <p role="status">Loading…</p> : (
            <div className="chart">
              <ResponsiveContainer width="100%" height={240}>
                <BarChart data={weekRows}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="short" fontSize={11} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip />
                  <Bar dataKey="value" name="Expiring" fill={MEANING_COLOUR.expiring} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          <Legend label="Credentials expiring: key" rows={[{ label: 'Expiring in the week', value: weekRows.reduce((n, r) => n + r.value, 0), colour: MEANING_COLOUR.expiring }]} />
          <details><summary>Numbers<span className="visually-hidden"> of credentials expiring by week</span></summary><DataTable caption="Credentials expiring by week" rows={weekRows} /></details>
        </figure>
        <figure className="card" aria-labelledby="chart-overdue">
          <figcaption id="chart-overdue">Overdue training by course</figcaption>
          {overdue === undefined ? <p role="status">Loading…</p> : overdueRows.length === 0 ? <p>No overdue training.</p> : (
            <div className="chart">
              <ResponsiveContainer width="100%" height={240}>
                <BarChart data={overdueRows} layout="vertical" margin={{ left: 24 }}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis type="number" allowDecimals={false} fontSize={11} />
                  <YAxis type="category" dataKey="label" width={140} fontSize={11} />
                  <Tooltip />
                  <Bar dataKey="value" name="Overdue" fill={MEANING_COLOUR.overdue} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          <Legend label="Overdue training: key" rows={[{ label: 'Overdue assignments', value: overdueRows.reduce((n, r) => n + r.value, 0), colour: MEANING_COLOUR.overdue }]} />
          <details><summary>Numbers<span className="visually-hidden"> of overdue training by course</span></summary><DataTable caption="Overdue training by course" rows={overdueRows} /></details>
        </figure>
        <figure className="card" aria-labelledby="chart-status">
          <figcaption id="chart-status">Users by status</figcaption>
          {statuses === undefined ? <p role="status">Loading…</p> : (
            <div className="chart">
              <ResponsiveContainer width="100%" height={240}>
                <PieChart>
                  <Pie data={statusRows} dataKey="value" nameKey="label" outerRadius={90} label isAnimationActive={false}>
                    {statusRows.map((r) => <Cell key={r.label} fill={r.colour} />)}
                  </Pie>
                  <Tooltip />
                </PieChart>
              </ResponsiveContainer>
            </div>
          )}
          <Legend label="Users by status: key" rows={statusRows} />
        </figure>
      </div>
    </section>
  );
}
