/**
 * The dashboard's compliance trend: % of active people compliant per site over
 * 30 days, 90 days or a year, from this laptop's history (trend.ts). Days without
 * a sync are gaps in the line, never a flat stretch; the days the requirements
 * changed carry a dashed mark. The numbers are beside it in a table.
 */
import { useState } from 'react';
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { useLiveQuery } from 'dexie-react-hooks';
import { todayIso } from '../../../shared/dates.ts';
import { useActiveDb } from '../../app/session.ts';
import { formatDate } from '../../app/format.ts';
import { loadTrend, sparseTrendWords, syncedDays, TREND_SPANS, type Trend, type TrendSpan } from './trend.ts';
import { historyXlsx } from '../../history/export.ts';
import { download } from '../outbox/download.ts';
import { HistoryHorizon } from './HistoryHorizon.tsx';

const LINE_COLOURS = ['#2563eb', '#059669', '#7c3aed', '#db2777', '#0891b2', '#65a30d'];
const colourOf = (i: number) => LINE_COLOURS[i % LINE_COLOURS.length]!;
const SPAN_WORDS: Record<TrendSpan, string> = { 30: '30 days', 90: '90 days', 365: 'A year' };

function siteNameOf(
  sites: readonly { siteid: number; sitename: string }[] | undefined,
  scope: string,
): string {
  const siteid = Number(scope.slice('site:'.length));
  return sites?.find((s) => s.siteid === siteid)?.sitename ?? `Site ${siteid}`;
}

function TrendTable({ trend, name }: { trend: Trend; name: (scope: string) => string }) {
  const synced = syncedDays(trend);
  // in the legend's order (by name)
  const scopes = [...trend.scopes].sort((a, b) => name(a).localeCompare(name(b)));
  return (
    <table className="chart-table">
      <caption>% compliant on the days this laptop synced</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {scopes.map((s) => (
            <th key={s} scope="col">
              {name(s)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {synced.map((d) => (
          <tr key={d.day}>
            <th scope="row">{formatDate(d.day)}</th>
            {scopes.map((s) => (
              <td key={s}>{d.percent[s] === null ? '–' : `${d.percent[s]}%`}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TrendChart({ trend, name }: { trend: Trend; name: (scope: string) => string }) {
  const rows = trend.days.map((d) => ({ day: d.day, ...d.percent }));
  return (
    <div className="chart">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={rows} margin={{ top: 16, right: 16 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis
            dataKey="day"
            fontSize={11}
            tickFormatter={(day: string) => formatDate(day)}
            minTickGap={24}
          />
          <YAxis domain={[0, 100]} unit="%" fontSize={11} />
          <Tooltip labelFormatter={(day) => formatDate(String(day))} />
          <Legend />
          {trend.requirementDays.map((day) => (
            <ReferenceLine
              key={day}
              x={day}
              stroke="#6b7280"
              strokeDasharray="4 4"
              label="Requirements changed"
            />
          ))}
          {trend.scopes.map((scope, i) => (
            <Line
              key={scope}
              dataKey={scope}
              name={name(scope)}
              stroke={colourOf(i)}
              connectNulls={false}
              // filled: a day alone between gaps is only its dot
              dot={{ r: 3, fill: colourOf(i) }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The trend card, of one site or (null) every site. */
export function ComplianceTrend({ siteid }: { siteid: number | null }) {
  const db = useActiveDb();
  const [span, setSpan] = useState<TrendSpan>(30);
  const today = todayIso();
  const trend = useLiveQuery(
    async () => (db ? loadTrend(db, span, today, siteid) : undefined),
    [db, span, today, siteid],
  );
  const sites = useLiveQuery(async () => (db ? db.sites.toArray() : []), [db]);
  const name = (scope: string) => siteNameOf(sites, scope);
  const synced = trend !== undefined && syncedDays(trend).length > 0;
  const sparse = trend && sparseTrendWords(trend, formatDate);
  const exportHistory = () =>
    void (db && historyXlsx(db).then((blob) => download(blob, `Compliance history ${today}.xlsx`)));
  return (
    <figure className="card card-wide" aria-labelledby="chart-trend">
      <figcaption id="chart-trend">
        % of active people compliant, by site (gaps: days without a sync)
      </figcaption>
      <div className="toolbar" role="group" aria-label="Period">
        {TREND_SPANS.map((s) => (
          <button key={s} type="button" aria-pressed={span === s} onClick={() => setSpan(s)}>
            {SPAN_WORDS[s]}
          </button>
        ))}
      </div>
      {trend === undefined ? (
        <p role="status">Loading…</p>
      ) : !synced ? (
        <p>No sync in this period yet: the trend starts with this laptop's first complete sync.</p>
      ) : (
        <>
          {sparse && <p>{sparse}</p>}
          <TrendChart trend={trend} name={name} />
        </>
      )}
      {trend && synced && (
        <p>
          <button type="button" disabled={!db || !synced} onClick={exportHistory}>
            Export the history (XLSX)
          </button>
        </p>
      )}
      {db && trend && synced && <HistoryHorizon db={db} today={today} onExport={exportHistory} />}
      {trend && synced && (
        <details>
          <summary>
            Numbers<span className="visually-hidden"> of the compliance trend</span>
          </summary>
          <TrendTable trend={trend} name={name} />
        </details>
      )}
    </figure>
  );
}
