/**
 * "Since last sync": what the last sync (or every sync since a chosen one)
 * changed in the cache, counted by kind, with the people behind each count;
 * filtered by site and profile group. From the change log only: works offline.
 */
import { useCallback, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { UserRecord } from '../../../shared/records.ts';
import { groupChoices } from '../../app/catalog.ts';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { ChoiceOptions } from '../../components/ChoiceOptions.tsx';
import { useActiveDb } from '../../app/session.ts';
import { formatCount, formatDate, formatDateTime } from '../../app/format.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { SelectionBar, useRowSelection } from '../../components/SelectionBar.tsx';
import { CHANGE_LABELS, type ChangeKind } from '../../sync/changes.ts';
import type { SyncChangeLog } from '../../sync/log.ts';
import {
  changeWords,
  changesSince,
  countsByKind,
  filterChanges,
  omittedSince,
  periodWords,
  type ChangeNames,
  type DatedChange,
} from './view-model.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE, plural } from '../../app/words.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { SiteChoice, useChosenSite } from '../../app/SiteChoice.tsx';
import { ComplianceImpact, removalWords } from './ComplianceImpact.tsx';
import { foldRemovals, type RemovedPerson } from './impact.ts';

const NO_LOGS: SyncChangeLog[] = [];
const NO_NAMES: ChangeNames = {
  sites: new Map(),
  credentials: new Map(),
  groups: new Map(),
  features: new Map(),
  courses: new Map(),
};

/** The names the change log refers to by id (small tables, read whole). */
async function loadChangeNames(db: FieldbookDb): Promise<ChangeNames> {
  const [sites, credentials, groups, modules, courses] = await Promise.all([
    db.sites.toArray(),
    db.credentials.toArray(),
    db.groups.toArray(),
    db.modules.toArray(),
    db.courses.toArray(),
  ]);
  return {
    sites: new Map(sites.map((s) => [s.siteid, s.sitename])),
    credentials: new Map(credentials.map((c) => [c.credentialid, c.credentialname])),
    groups: new Map(groups.map((g) => [g.groupid, g.groupname])),
    features: new Map(modules.map((m) => [m.accessID, `${m.moduleName}: ${m.functionName}`])),
    courses: new Map(courses.map((c) => [c.courseid, c.coursename])),
  };
}

/** "from 10:55 to 11:01 (the last sync)", "from 9:10 to 11:01 (the last 3 syncs)". */
function periodChoice(log: SyncChangeLog, last: SyncChangeLog, syncs: number): string {
  return `${periodWords(log.since, last.at)} (${syncs === 1 ? 'the last sync' : `the last ${plural(syncs, 'sync')}`})`;
}

/** The changes of the period chosen (the last sync's by default), the same arrays while the log and period stay. */
function usePeriod(logs: SyncChangeLog[], fromSeq: number | null) {
  const last = logs.at(-1) ?? null;
  const from = fromSeq ?? last?.seq ?? null;
  const [period, omitted] = useMemo(
    () => (from === null ? [[], 0] : [changesSince(logs, from), omittedSince(logs, from)]),
    [logs, from],
  );
  // a removed person's credentials, training and access are one change: their removal
  const { rest: all, removed } = useMemo(() => foldRemovals(period), [period]);
  return { last, from, period, omitted, all, removed };
}

/** The period's changes within the chosen site and group, with the people they are about. */
function useShownChanges(
  db: FieldbookDb | null,
  all: readonly DatedChange[],
  from: number | null,
  scope: { siteid: number | null; groupid: number | null },
) {
  const { siteid, groupid } = scope;
  const members =
    useLiveQuery(
      async () =>
        db && groupid !== null
          ? new Set((await db.groupMembers.where('groupid').equals(groupid).toArray()).map((m) => m.userid))
          : null,
      [db, groupid],
    ) ?? null;
  const people = useLiveQuery(async () => {
    if (!db || from === null) return new Map<number, UserRecord>();
    const ids = [...new Set(all.map((c) => c.u))];
    return new Map(
      (await db.users.bulkGet(ids)).filter((u): u is UserRecord => u !== undefined).map((u) => [u.userid, u]),
    );
  }, [db, all]);
  const shown = useMemo(
    () => filterChanges(all, { siteid, members }, (userid) => people?.get(userid)?.siteid),
    [all, siteid, members, people],
  );
  return { members, people, shown };
}

/** How many changes are listed, and whether the last sync stopped before its end. */
function StatusLine({
  logs,
  last,
  from,
  counts,
}: {
  logs: readonly SyncChangeLog[];
  last: SyncChangeLog;
  from: number | null;
  counts: { shown: number; all: number; omitted: number };
}) {
  const { shown, all, omitted } = counts;
  const since = logs.find((l) => l.seq === from)?.since ?? last.since;
  const listed =
    shown !== all ? `${formatCount(shown)} of ${plural(all, 'change')} (filtered)` : plural(shown, 'change');
  const more = omitted > 0 ? `, and ${formatCount(omitted)} more counted but not listed` : '';
  const stopped = last.outcome === 'cancelled' ? 'was cancelled' : 'stopped on an error';
  return (
    <p role="status" aria-live="polite">
      {all === 0 && omitted === 0 ? `Nothing changed ${periodWords(since, last.at)}.` : `${listed}${more}.`}
      {last.outcome !== 'completed'
        ? ` The last sync ${stopped}: what it changed before stopping is listed.`
        : ''}
    </p>
  );
}

export default function ChangesView() {
  const db = useActiveDb();
  const logs = useLiveQuery(async () => (db ? db.syncChanges.orderBy('seq').toArray() : []), [db]) ?? NO_LOGS;
  const names = useLiveQuery(async () => (db ? loadChangeNames(db) : NO_NAMES), [db]) ?? NO_NAMES;
  const groups = useLiveQuery(async () => (db ? db.groups.toArray() : []), [db]) ?? [];
  const catalog = useCatalogNames(db);
  const [fromSeq, setFromSeq] = useState<number | null>(null);
  // the site the coordinator looks after, as on the dashboard and every other view
  const chosen = useChosenSite();
  const { siteid, sites } = chosen;
  const [groupid, setGroupid] = useState<number | null>(null);
  const [kind, setKind] = useState<ChangeKind | null>(null);
  const { last, from, period, omitted, all, removed } = usePeriod(logs, fromSeq);
  const { members, people, shown } = useShownChanges(db, all, from, { siteid, groupid });
  const counts = countsByKind(shown);
  const siteName = new Map(sites.map((s) => [s.siteid, s.sitename]));
  // the chosen site's groups, each naming its site (every site has its own "Driver")
  const groupOptions = groupChoices(groups, catalog, siteid);
  // the same array while nothing it depends on changes: the selection re-reads its list when it changes
  const drill = useMemo(() => (kind ? shown.filter((c) => c.k === kind) : []), [kind, shown]);

  return (
    <section className="view changes-view" aria-labelledby="changes-heading">
      <h1 id="changes-heading">Since last sync</h1>
      {last === null ? (
        <p role="status">
          No changes recorded yet: the first sync of a profile has nothing to compare with. Each sync after it
          records what it changed here.
        </p>
      ) : (
        <>
          <div className="toolbar">
            <label>
              Period{' '}
              <select value={from ?? ''} onChange={(e) => setFromSeq(Number(e.target.value))}>
                {[...logs].reverse().map((log, i) => (
                  <option key={log.seq} value={log.seq}>
                    {periodChoice(log, last, i + 1)}
                  </option>
                ))}
              </select>
            </label>
            <SiteChoice chosen={chosen} onChoose={() => setGroupid(null)} />
            <label>
              Group{' '}
              <select
                value={groupid ?? ''}
                onChange={(e) => setGroupid(e.target.value ? Number(e.target.value) : null)}
              >
                <option value="">All groups</option>
                <ChoiceOptions groups={groupOptions} />
              </select>
            </label>
          </div>
          <StatusLine
            logs={logs}
            last={last}
            from={from}
            counts={{ shown: shown.length, all: all.length, omitted }}
          />
          <ComplianceImpact
            changes={period}
            sinceIso={logs.find((l) => l.seq === from)?.since ?? last.since}
            scope={{ siteid, members }}
            siteName={(id) => siteName.get(id) ?? String(id)}
          />
          <h2>Changes by kind</h2>
          {counts.length > 0 && <KindCounts counts={counts} kind={kind} onKind={setKind} />}
          {kind && (
            <PeopleTable
              key={kind}
              kind={kind}
              drill={drill}
              people={people}
              siteName={siteName}
              names={names}
              removed={removed}
            />
          )}
        </>
      )}
    </section>
  );
}

function KindCounts({
  counts,
  kind,
  onKind,
}: {
  counts: ReturnType<typeof countsByKind>;
  kind: ChangeKind | null;
  onKind: (kind: ChangeKind | null) => void;
}) {
  return (
    <table className="chart-table kind-counts" aria-label="Changes by kind">
      <tbody>
        {counts.map((c) => (
          <tr key={c.kind}>
            <th scope="row">{CHANGE_LABELS[c.kind]}</th>
            <td>{formatCount(c.count)}</td>
            <td>
              <button
                type="button"
                aria-pressed={kind === c.kind}
                onClick={() => onKind(kind === c.kind ? null : c.kind)}
              >
                {kind === c.kind ? 'Hide people' : 'Show people'}
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

interface PeopleTableProps {
  kind: ChangeKind;
  drill: ReturnType<typeof filterChanges>;
  people: ReadonlyMap<number, UserRecord> | undefined;
  siteName: ReadonlyMap<number, string>;
  names: ChangeNames;
  /** people removed, with the records folded under them */
  removed: ReadonlyMap<number, RemovedPerson>;
}

type ChangeRow = ReturnType<typeof filterChanges>[number] & { key: number };
const NO_ROWS: ChangeRow[] = [];
const personOf = (c: ChangeRow) => c.u;

function changeColumns({
  people,
  siteName,
  names,
  removed,
}: Pick<PeopleTableProps, 'people' | 'siteName' | 'names' | 'removed'>): Column<ChangeRow>[] {
  return [
    {
      id: 'person',
      header: 'Person',
      width: 'minmax(10rem, 1.5fr)',
      render: (c) => {
        const person = people?.get(c.u);
        return person ? (
          <a href={hrefFor('users', c.u)} tabIndex={-1}>
            {`${person.firstname} ${person.lastname}`.trim() || person.username}
          </a>
        ) : c.d && c.k === 'person.removed' ? (
          c.d
        ) : (
          NOT_HERE.person
        );
      },
    },
    {
      id: 'site',
      header: 'Site',
      width: 'minmax(8rem, 1fr)',
      render: (c) => {
        const site = c.s ?? people?.get(c.u)?.siteid;
        return site !== undefined ? (siteName.get(site) ?? String(site)) : '';
      },
    },
    {
      id: 'what',
      header: 'What changed',
      width: 'minmax(10rem, 2fr)',
      render: (c) => {
        const gone = c.k === 'person.removed' ? removed.get(c.u) : undefined;
        return gone ? removalWords(gone) : changeWords(c, names, (iso) => formatDate(iso));
      },
    },
    {
      id: 'at',
      header: 'Seen by the sync of',
      width: 'minmax(10rem, 1fr)',
      render: (c) => formatDateTime(c.at),
    },
  ];
}

/** The people behind one count, with what changed for each: a list to select and act on. */
function PeopleTable({ kind, drill, people, siteName, names, removed }: PeopleTableProps) {
  const rows = useMemo(() => drill.map((c, key) => ({ ...c, key })), [drill]);
  // people removed from the site cannot be acted on: only those still cached are selectable in bulk
  const loadMatching = useCallback(
    async () => rows.filter((c) => people?.has(c.u)).map(personOf),
    [rows, people],
  );
  const selection = useRowSelection(rows, personOf, loadMatching);
  return (
    <>
      <SelectionBar
        store={selection.store}
        matchCount={rows.filter((c) => people?.has(c.u)).length}
        loadMatching={loadMatching}
      />
      <VirtualGrid
        label={`People: ${CHANGE_LABELS[kind]}`}
        rows={rows.length ? rows : NO_ROWS}
        rowKey={(c) => c.key}
        columns={changeColumns({ people, siteName, names, removed })}
        size="short"
        {...selection.grid}
        rowLabel={(c) => {
          const p = people?.get(c.u);
          return p ? `${p.lastname}, ${p.firstname}` : NOT_HERE.person;
        }}
        onActivate={(c) => people?.has(c.u) && navigate('users', c.u)}
      />
    </>
  );
}
