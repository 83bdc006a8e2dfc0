/** The users list: instant search, filters, sortable columns, counts and multi-select. */
import { personStatusChoice, personStatusMeaning } from '../../app/person-status.ts';
import { useCallback, useDeferredValue, useEffect, useMemo } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { StatusText } from '../../components/Badges.tsx';
import { countWithPending, pendingByPerson, personMark, type PendingMark } from '../../app/overlays.ts';
import { WithPendingMark } from '../../components/PendingMarker.tsx';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { formatCount } from '../../app/format.ts';
import { plural } from '../../app/words.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import {
  DEFAULT_SORT,
  countUsers,
  firstScreenOfUsers,
  keepUsersFirstScreen,
  searchUsersWithPending,
  userFilterOptions,
  type UserFilterOptions,
  type UserSortKey,
} from './queries.ts';
import { keptFirstScreen } from '../../db/first-screen-kept.ts';
import { useUsersView } from './view-store.ts';
import { useUserSelection, userSelectionStore } from './selection.ts';
import { SelectionBar } from '../../components/SelectionBar.tsx';
import { catalogNames, groupChoices } from '../../app/catalog.ts';
import { ChoiceOptions } from '../../components/ChoiceOptions.tsx';
import { SiteChoice, useChosenSite } from '../../app/SiteChoice.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { pendingCell, tableOf, type ExportColumn } from '../../app/export-list.ts';

type Row = UserRecord & PendingMark;

const FIRST_SCREEN = 60;
/**
 * The first screen is kept for the next start once the list has not changed for this long (a sync changes it for
 * minutes).
 */
const KEEP_AFTER_MS = 1_000;

function numberOrNull(value: string): number | null {
  return value === '' ? null : Number(value);
}

/** The list's rows in their effective state: the first screenful at once, then every match. */
function useUsersList(db: FieldbookDb) {
  const text = useUsersView((s) => s.text);
  const chosenFilters = useUsersView((s) => s.filters);
  // the site is the one the coordinator looks after (SiteChoice), the same in every view
  const siteid = useChosenSite().siteid;
  const filters = useMemo(() => ({ ...chosenFilters, siteid }), [chosenFilters, siteid]);
  const sort = useUsersView((s) => s.sort);
  const deferredText = useDeferredValue(text);
  const pendingVersion = usePendingVersion();

  // the unfiltered list in name order can show its first screenful before all 20,000 users are read
  const plainList =
    deferredText.trim() === '' &&
    Object.values(filters).every((v) => v == null) &&
    sort.key === DEFAULT_SORT.key &&
    sort.direction === DEFAULT_SORT.direction;
  const firstScreen = useLiveQuery(
    async () => (plainList ? firstScreenOfUsers(db, FIRST_SCREEN) : undefined),
    [db, plainList, pendingVersion],
  );
  // until the database answers (seconds on a large cache), the screen kept at the last visit: exactly what it holds
  const kept = useMemo(() => keptFirstScreen(db.name), [db.name]);
  const fromKept = plainList && firstScreen === undefined && kept !== null;
  useEffect(() => {
    if (!plainList || firstScreen === undefined) return;
    const timer = setTimeout(
      () => void keepUsersFirstScreen(db, FIRST_SCREEN).catch(() => false),
      KEEP_AFTER_MS,
    );
    return () => clearTimeout(timer);
  }, [db, plainList, firstScreen]);
  // The plain list waits for its first screenful (IndexedDB would otherwise serve the big read
  // first). The count is read in the same live query on purpose: the search may be served from
  // memory, and this read is what makes the query re-run when any user changes.
  const waitForFirstScreen = plainList && firstScreen === undefined;
  const result = useLiveQuery(async () => {
    if (waitForFirstScreen) return undefined;
    // pending edits and people created offline, in the list wherever they now match
    const [users, total] = await Promise.all([
      searchUsersWithPending(db, deferredText, filters, sort),
      countUsers(db).then((count) => countWithPending('users', db, count, () => true)),
    ]);
    return { count: total, users };
  }, [db, deferredText, filters, sort, waitForFirstScreen, pendingVersion]);
  const users = result?.users;
  // counting 200,000 people takes IndexedDB 0.4 s: asked once the first screenful is read, not before it
  const firstCount = useLiveQuery(
    () => (waitForFirstScreen ? undefined : countUsers(db)),
    [db, waitForFirstScreen],
  );
  const rows: Row[] = useMemo(
    () => users ?? firstScreen ?? (fromKept ? kept.rows : []),
    [users, firstScreen, fromKept, kept],
  );
  // what "Clear filters" clears (the site stays chosen)
  const filtered =
    deferredText.trim() !== '' ||
    Object.entries(chosenFilters).some(([key, v]) => key !== 'siteid' && v != null);
  const total = result?.count ?? firstCount ?? (fromKept ? kept.total : undefined);
  return {
    rows,
    loaded: users !== undefined,
    shown: firstScreen !== undefined || fromKept,
    fromKept,
    keptSites: kept?.sites,
    firstScreenRead: !waitForFirstScreen,
    total,
    filtered,
  };
}

/**
 * `byPerson`: the pending changes about each person (e-mails, credentials, training, access), marked on their row too.
 */
function userColumns(
  siteNames: ReadonlyMap<number, string>,
  byPerson: ReadonlyMap<number, readonly string[]> | undefined,
): Column<Row>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      width: 'minmax(12rem, 1.5fr)',
      sortable: true,
      render: (u) => (
        <WithPendingMark
          row={personMark(u, byPerson)}
          what={`${u.firstname} ${u.lastname}`}
          title={`${u.lastname}, ${u.firstname}`}
        >
          <a href={hrefFor('users', u.userid)} tabIndex={-1} onClick={(e) => e.stopPropagation()}>
            {u.lastname}, {u.firstname}
          </a>{' '}
          {u.refreshedAt && !u.pendingOps && (
            <span
              className="badge"
              title="Your changes were sent, then read back from the site: this is what the site now holds"
            >
              Changes saved
            </span>
          )}
        </WithPendingMark>
      ),
    },
    {
      id: 'username',
      header: 'Username',
      width: 'minmax(8rem, 1.2fr)',
      sortable: true,
      render: (u) => u.username,
    },
    {
      id: 'employeeid',
      header: 'Employee ID',
      width: 'minmax(6rem, 0.8fr)',
      sortable: true,
      render: (u) => u.employeeid,
    },
    {
      id: 'status',
      header: 'Status',
      width: '7rem',
      sortable: true,
      render: (u) => <StatusText value={u.status} meaning={personStatusMeaning(u.status)} />,
    },
    { id: 'usertype', header: 'Type', width: '8rem', sortable: true, render: (u) => u.usertype },
    {
      id: 'siteid',
      header: 'Site',
      width: 'minmax(8rem, 1.2fr)',
      sortable: true,
      render: (u) => siteNames.get(u.siteid) ?? String(u.siteid),
      fitText: (u) => siteNames.get(u.siteid) ?? '',
    },
  ];
}

function userExportColumns(siteNames: ReadonlyMap<number, string>): ExportColumn<Row>[] {
  return [
    { header: 'Last name', cell: (u) => u.lastname },
    { header: 'First name', cell: (u) => u.firstname },
    { header: 'Username', cell: (u) => u.username },
    { header: 'Employee ID', cell: (u) => u.employeeid },
    { header: 'Status', cell: (u) => u.status },
    { header: 'User type', cell: (u) => u.usertype },
    { header: 'Site', cell: (u) => siteNames.get(u.siteid) ?? String(u.siteid) },
    { header: 'Pending change', cell: (u) => pendingCell(u) },
  ];
}

/** Search and filters; the Status and Type choices include the values pending edits give. */
function UsersSearch({ options, filtered }: { options: UserFilterOptions | undefined; filtered: boolean }) {
  const text = useUsersView((s) => s.text);
  const filters = useUsersView((s) => s.filters);
  const { setText, setFilter, clearFilters } = useUsersView((s) => s);
  const chosen = useChosenSite();
  return (
    <div className="toolbar" role="search">
      <label>
        Search users
        <input
          type="search"
          value={text}
          placeholder="Name, username or employee ID"
          onChange={(e) => setText(e.target.value)}
          autoFocus
        />
      </label>
      <SiteChoice chosen={chosen} onChoose={() => setFilter('groupid', null)} />
      <label>
        Status
        <select value={filters.status ?? ''} onChange={(e) => setFilter('status', e.target.value || null)}>
          <option value="">All statuses</option>
          {options?.statuses.map((s) => (
            <option key={s} value={s}>
              {personStatusChoice(s)}
            </option>
          ))}
        </select>
      </label>
      <label>
        User type
        <select
          value={filters.usertype ?? ''}
          onChange={(e) => setFilter('usertype', e.target.value || null)}
        >
          <option value="">All types</option>
          {options?.usertypes.map((s) => (
            <option key={s} value={s}>
              {s || '(none)'}
            </option>
          ))}
        </select>
      </label>
      <label>
        Profile group
        <select
          value={filters.groupid ?? ''}
          onChange={(e) => setFilter('groupid', numberOrNull(e.target.value))}
        >
          <option value="">All groups</option>
          {options && (
            <ChoiceOptions
              groups={groupChoices(
                options.groups,
                catalogNames(options.sites, options.profileCategories),
                chosen.siteid,
              )}
            />
          )}
        </select>
      </label>
      {filtered && (
        <button type="button" onClick={clearFilters}>
          Clear filters
        </button>
      )}
    </div>
  );
}

export function UsersView({ db }: { db: FieldbookDb }) {
  const sort = useUsersView((s) => s.sort);
  const sortBy = useUsersView((s) => s.sortBy);
  const selected = useUserSelection((s) => s.selected);
  const select = useUserSelection((s) => s.select);
  const selectAll = useUserSelection((s) => s.selectAll);
  const pendingVersion = usePendingVersion();
  const { rows, loaded, shown, fromKept, keptSites, firstScreenRead, total, filtered } = useUsersList(db);
  // the filters' choices walk the status and type indexes of every user (0.5 s at 200,000): after the first screenful;
  // the site names the rows show are a small read, at once
  const options = useLiveQuery(
    () => (firstScreenRead ? userFilterOptions(db) : undefined),
    [db, pendingVersion, firstScreenRead],
  );
  const sites = useLiveQuery(() => db.sites.toArray(), [db]);
  const byPerson = useLiveQuery(() => pendingByPerson(db), [db, pendingVersion]);
  const siteNames = useMemo(
    () => new Map(sites ? sites.map((s) => [s.siteid, s.sitename]) : (keptSites ?? [])),
    [sites, keptSites],
  );
  const orderedIds = useMemo(() => rows.map((u) => u.userid), [rows]);
  const loadMatching = useCallback(async () => orderedIds, [orderedIds]);

  return (
    <section className="view users-view" aria-labelledby="users-heading">
      <h1 id="users-heading">Users</h1>
      <UsersSearch options={options} filtered={filtered} />
      <div className="toolbar">
        <p role="status" aria-live="polite" className="count">
          {!loaded
            ? shown && total !== undefined
              ? plural(total, 'user')
              : 'Loading users…'
            : `${formatCount(rows.length)} of ${plural(total ?? rows.length, 'user')}`}
        </p>
        <ExportButtons
          what="users"
          load={async () => tableOf(userExportColumns(siteNames), rows)}
          disabled={!loaded || rows.length === 0}
        />
      </div>
      <SelectionBar
        store={userSelectionStore}
        matchCount={loaded ? rows.length : undefined}
        loadMatching={loadMatching}
      />
      <VirtualGrid
        label="Users"
        rows={rows}
        rowKey={(u) => u.userid}
        columns={userColumns(siteNames, byPerson)}
        sort={{ column: sort.key, direction: sort.direction }}
        onSort={(column) => sortBy(column as UserSortKey)}
        selected={selected}
        onSelect={(index, mode, fromIndex) => select(orderedIds, index, mode, fromIndex)}
        loading={!loaded && !shown}
        busy={fromKept}
        onSelectAll={() => selectAll(orderedIds)}
        rowLabel={(u) => `${u.lastname}, ${u.firstname}`}
        onActivate={(u) => navigate('users', u.userid)}
        emptyText={
          total === 0
            ? 'No users in the cache yet: sync from Connection & sync.'
            : 'No user matches the search and filters.'
        }
      />
    </section>
  );
}
