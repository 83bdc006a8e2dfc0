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

const PALETTE = ['#2563eb', '#16a34a', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#64748b', '#db2777'];

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
  const statusRows = (statuses ?? []).map((s) => ({ label: s.status || '(none)', value: s.count }));
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
                  <Bar dataKey="value" name="Expiring" fill={PALETTE[3]} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          <details><summary>Numbers</summary><DataTable caption="Credentials expiring by week" rows={weekRows} /></details>
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
                  <Bar dataKey="value" name="Overdue" fill={PALETTE[2]} isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          )}
          <details><summary>Numbers</summary><DataTable caption="Overdue training by course" rows={overdueRows} /></details>
        </figure>
        <figure className="card" aria-labelledby="chart-status">
          <figcaption id="chart-status">Users by status</figcaption>
          {statuses === undefined ? <p role="status">Loading…</p> : (
            <div className="chart">
              <ResponsiveContainer width="100%" height={240}>
                <PieChart>
                  <Pie data={statusRows} dataKey="value" nameKey="label" outerRadius={90} label isAnimationActive={false}>
                    {statusRows.map((r, i) => <Cell key={r.label} fill={PALETTE[i % PALETTE.length]} />)}
                  </Pie>
                  <Tooltip />
                </PieChart>
              </ResponsiveContainer>
            </div>
          )}
          <DataTable caption="Users by status" rows={statusRows} />
        </figure>
      </div>
    </section>
  );
}
