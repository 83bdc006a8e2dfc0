/**
 * Credentials by credential and by category, with counts of expired and
 * expiring; the holders of one credential (or of all), filtered to expired or
 * expiring within 30/60/90 days; who held one on a past day (HeldOnDay).
 */
import { useCallback, useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useLiveQueryAbout } from '../../app/live-query.ts';
import type { CredentialAssignmentRecord, CredentialRecord } from '../../../shared/records.ts';
import { todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import type { RouteProps } from '../../app/routes.tsx';
import { useActiveDb } from '../../app/session.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { formatCount, formatDate } from '../../app/format.ts';
import { CREDENTIAL_STATE_LABEL, credentialState } from '../../app/compliance.ts';
import { applyOverlays, usersWithPending } from '../../app/overlays.ts';
import { pageRead, shouldReadMore, type PageRead } from '../../app/read-more.ts';
import { WithPendingMark } from '../../components/PendingMarker.tsx';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { CredentialBadge, StatusText } from '../../components/Badges.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { pendingCell, tableOf, type ExportColumn } from '../../app/export-list.ts';
import { credentialLabel, siteName } from '../../app/catalog.ts';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { listCount, NOT_ON_THIS_LAPTOP as NOT_HERE, plural } from '../../app/words.ts';
import { ExpiryDate } from '../../components/ExpiryDate.tsx';
import { expiryWords } from '../../app/expiry-words.ts';
import { useSoonDays } from '../../app/soon-window.ts';
import { SelectionBar, useRowSelection } from '../../components/SelectionBar.tsx';
import { HeldOnDay } from './HeldOnDay.tsx';
import {
  PAGE_SIZE,
  countExpiringInWithPending,
  countInWindowWithPending,
  credentialHolders,
  credentialSummaries,
  credentialsExpiringIn,
  credentialsExpiringWithin,
  expiredCredentials,
  siteCredentialIds,
  inExpiredWindow,
  inExpiringWindow,
  inExpiryRange,
  listCredentialCategories,
  listCredentials,
  weekRange,
  type Holder,
  type WindowOptions,
} from './queries.ts';

/**
 * All holders, the expired, those expiring within that many days ("30"), or in the week starting that day (a bar of the
 * dashboard's chart).
 */
export type HolderWindow = 'all' | 'expired' | `${number}` | `week:${string}`;

/** The first day of a week's window, null for the other windows. */
function weekOf(window: HolderWindow): string | null {
  return window.startsWith('week:') ? window.slice('week:'.length) : null;
}

/**
 * The list of a window other than "all": its query, its test for pending records, and its count (the one the dashboard
 * shows).
 */
function windowQuery(db: FieldbookDb, window: Exclude<HolderWindow, 'all'>, options: WindowOptions) {
  const week = weekOf(window);
  if (week !== null) {
    const range = weekRange(week);
    return {
      read: () => credentialsExpiringIn(db, range, options),
      matches: (a: CredentialAssignmentRecord) => inExpiryRange(a, range, options),
      count: () => countExpiringInWithPending(db, range, options),
    };
  }
  if (window === 'expired')
    return {
      read: () => expiredCredentials(db, options),
      matches: (a: CredentialAssignmentRecord) => inExpiredWindow(a, options),
      count: () => countInWindowWithPending(db, 'expired', options),
    };
  const days = Number(window);
  return {
    read: () => credentialsExpiringWithin(db, days, options),
    matches: (a: CredentialAssignmentRecord) => inExpiringWindow(a, days, options),
    count: () => countInWindowWithPending(db, days, options),
  };
}

interface HolderPage {
  holders: Holder[];
  total: number;
  read: PageRead;
}

/** A list the dashboard opened for one site: that site's credentials only. */
interface HolderSite {
  sitename: string;
  credentialids: ReadonlySet<number>;
}

async function loadHolders(
  db: FieldbookDb,
  credentialid: number | null,
  window: HolderWindow,
  today: string,
  limit: number,
  site: HolderSite | null = null,
): Promise<HolderPage> {
  if (window === 'all' && credentialid !== null) {
    const holders = await credentialHolders(db, credentialid);
    const assignments = await applyOverlays(
      'credentialAssignments',
      db,
      holders.map((h) => h.assignment),
      (a) => a.credentialid === credentialid,
    );
    const users = await usersWithPending(
      db,
      assignments.map((a) => a.userid),
    );
    return {
      holders: assignments.map((assignment) => ({ assignment, user: users.get(assignment.userid) })),
      total: assignments.filter((a) => a.pendingChange !== 'delete').length,
      read: pageRead(Infinity, holders.length),
    };
  }
  const options =
    credentialid !== null
      ? { today, credentialid, limit }
      : site
        ? { today, limit, credentialids: site.credentialids }
        : { today, limit };
  // 'all' of every credential is never asked (the view shows the soon window instead)
  const query = windowQuery(db, window === 'all' ? 'expired' : window, options);
  // the total is counted by the query the dashboard's figures use, so the two agree
  const [assignments, total] = await Promise.all([query.read(), query.count()]);
  const withPending = await applyOverlays('credentialAssignments', db, assignments, query.matches);
  const users = await usersWithPending(
    db,
    withPending.map((a) => a.userid),
  );
  return {
    holders: withPending.map((assignment) => ({ assignment, user: users.get(assignment.userid) })),
    total,
    read: pageRead(limit, assignments.length),
  };
}

function holderWindowWords(window: HolderWindow): string {
  const week = weekOf(window);
  if (week !== null) return `expiring in the week of ${formatDate(week)}`;
  return window === 'all'
    ? ''
    : window === 'expired'
      ? 'expired'
      : `expiring within ${plural(Number(window), 'day')}`;
}

/** The windows the Show picker offers: this week, the "soon" window, 30/60/90 days, and the one a link opened. */
function windowChoices(soonDays: number, current: HolderWindow): number[] {
  const days = new Set([7, soonDays, 30, 60, 90]);
  if (current !== 'all' && current !== 'expired' && weekOf(current) === null) days.add(Number(current));
  return [...days].sort((a, b) => a - b);
}

function holderExportColumns(
  names: Map<number, string>,
  today: string,
  soonDays: number,
): ExportColumn<Holder>[] {
  return [
    { header: 'Last name', cell: (h) => h.user?.lastname },
    { header: 'First name', cell: (h) => h.user?.firstname },
    { header: 'Username', cell: (h) => h.user?.username },
    { header: 'Employee ID', cell: (h) => h.user?.employeeid },
    { header: 'Credential', cell: (h) => names.get(h.assignment.credentialid) ?? NOT_HERE.credential },
    { header: 'Start', cell: (h) => h.assignment.startIso },
    { header: 'Expires', cell: (h) => h.assignment.expirationIso },
    { header: 'State', cell: (h) => CREDENTIAL_STATE_LABEL[credentialState(h.assignment, today, soonDays)] },
    { header: 'Number', cell: (h) => h.assignment.credentialnumber },
    { header: 'Status', cell: (h) => h.assignment.status },
    { header: 'Pending change', cell: (h) => pendingCell(h.assignment) },
  ];
}

/** "180 holders" of one credential; "28 credentials held" of them all (a person may hold several). */
function holdersCount(shown: number, total: number, oneCredential: boolean): string {
  return oneCredential
    ? listCount(shown, total, 'holder')
    : listCount(shown, total, 'credential held', 'credentials held');
}

const NO_HOLDERS: Holder[] = [];

/** "First Aid of Ann Lee": what a holder row's Undo undoes. */
function holderWhat(h: Holder, names: ReadonlyMap<number, string>): string {
  const credential = names.get(h.assignment.credentialid) ?? 'the credential';
  const person = h.user ? `${h.user.firstname} ${h.user.lastname}` : NOT_HERE.person;
  return `${credential} of ${person}`;
}
const personOfHolder = (h: Holder) => h.assignment.userid;

interface HoldersProps {
  db: FieldbookDb;
  credential: CredentialRecord | null;
  names: Map<number, string>;
  /** the window to show first: the one a link opened, or the one last chosen on this page */
  opened: HolderWindow | null;
  /** the coordinator chose another window: it is kept when they open another credential */
  onChoose: (window: HolderWindow) => void;
  /** the site a dashboard link kept the list to (every credential of it), null for every site */
  site: HolderSite | null;
}

/** The holders' columns: the credential's own column only when the list is of every credential. */
function holderColumnsOf(
  credential: CredentialRecord | null,
  names: Map<number, string>,
  today: string,
  soonDays: number,
): Column<Holder>[] {
  const holderName = (h: Holder) => (h.user ? `${h.user.lastname}, ${h.user.firstname}` : NOT_HERE.person);
  const credentialColumn: Column<Holder> = {
    id: 'credential',
    header: 'Credential',
    width: 'minmax(8rem, 5fr)',
    render: (h) => names.get(h.assignment.credentialid) ?? NOT_HERE.credential,
    fitText: (h) => names.get(h.assignment.credentialid) ?? '',
  };
  const expiration = { expiration: credential?.requiredexpirationdate ?? true };
  return [
    // the holder's name takes the room it needs; what is left goes mostly to the credential's name,
    // the longest text here
    {
      id: 'user',
      header: 'Holder',
      width: credential ? 'minmax(10rem, 2fr)' : 'minmax(9rem, 1fr)',
      render: (h) => (
        <WithPendingMark row={h.assignment} what={holderWhat(h, names)}>
          {h.user ? (
            <a href={hrefFor('users', h.user.userid)} tabIndex={-1}>
              {h.user.lastname}, {h.user.firstname}
            </a>
          ) : (
            NOT_HERE.person
          )}
        </WithPendingMark>
      ),
      fitText: holderName,
    },
    ...(credential ? [] : [credentialColumn]),
    {
      id: 'expires',
      header: 'Expires',
      width: 'minmax(12rem, 22rem)',
      render: (h) => <ExpiryDate iso={h.assignment.expirationIso} today={today} />,
      fitText: (h) =>
        `${formatDate(h.assignment.expirationIso)} · ${expiryWords(h.assignment.expirationIso, today)}`,
    },
    {
      id: 'state',
      header: 'State',
      width: '8rem',
      render: (h) => <CredentialBadge state={credentialState(h.assignment, today, soonDays, expiration)} />,
    },
    {
      id: 'number',
      header: 'Number',
      width: '7rem',
      render: (h) => h.assignment.credentialnumber || '—',
      fitText: (h) => h.assignment.credentialnumber,
    },
    {
      id: 'status',
      header: 'Status',
      width: '6rem',
      render: (h) => <StatusText value={h.assignment.status} />,
    },
  ];
}

/** The holders of the window shown, a page at a time, their selection and their export. */
function useHolders({ db, credential, names, opened, onChoose, site }: HoldersProps) {
  const soonDays = useSoonDays();
  // null: the "soon" window of Settings, whatever it is now
  const [window, setWindow] = useState<HolderWindow | null>(opened ?? (credential ? 'all' : null));
  const effective: HolderWindow =
    window === null || (!credential && window === 'all') ? `${soonDays}` : window;
  const today = todayIso();
  const [limit, setLimit] = useState(PAGE_SIZE);
  const choose = (chosen: HolderWindow) => {
    setWindow(chosen);
    setLimit(PAGE_SIZE);
    onChoose(chosen);
  };
  const pendingVersion = usePendingVersion();
  const credentialid = credential?.credentialid ?? null;
  const page = useLiveQueryAbout(
    [db, credentialid, effective, site],
    () => loadHolders(db, credentialid, effective, today, limit, site),
    [credential, today, limit, pendingVersion],
  );
  const holders = page?.holders;
  const total = page?.total ?? 0;
  const shown = holders?.length ?? 0;
  // scrolling near the end reads the next page (once the current one has arrived)
  const readMore = () => {
    if (shouldReadMore(page?.read, limit, shown, total)) setLimit(limit + PAGE_SIZE);
  };
  // every page of the list, for "select all" and for saying who is selected but no longer listed
  const loadMatching = useCallback(
    async () =>
      (await loadHolders(db, credential?.credentialid ?? null, effective, today, Infinity, site)).holders
        .filter((h) => h.assignment.pendingChange !== 'delete')
        .map((h) => h.assignment.userid),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- pendingVersion: pending edits change who is listed
    [db, credential, effective, today, pendingVersion, site],
  );
  const selection = useRowSelection(holders ?? NO_HOLDERS, personOfHolder, loadMatching);
  const exportHolders = async () => {
    const all = await loadHolders(db, credential?.credentialid ?? null, effective, today, Infinity, site);
    return tableOf(holderExportColumns(names, today, soonDays), all.holders);
  };
  const list = { holders, total, shown, readMore, loadMatching, selection, exportHolders };
  return { ...list, soonDays, today, effective, choose };
}

function Holders(props: HoldersProps) {
  const { credential, names, site } = props;
  const { holders, total, selection, effective, soonDays, ...list } = useHolders(props);
  const title = credential
    ? credential.credentialname
    : site
      ? `All credentials of ${site.sitename}`
      : 'All credentials';
  const listWords = holderWindowWords(effective);
  const exportName = `${credential ? `holders of ${credential.credentialname}` : 'credentials'} ${listWords}`;
  return (
    <section className="panel" aria-labelledby="holders-heading">
      <h2 id="holders-heading">Holders: {title}</h2>
      <div className="toolbar">
        <HolderWindowChoice
          credential={credential}
          effective={effective}
          soonDays={soonDays}
          onChoose={list.choose}
        />
        {credential && (
          <button type="button" onClick={() => navigate('credentials')}>
            Show all credentials
          </button>
        )}
        <ExportButtons what={exportName} load={list.exportHolders} disabled={!holders || total === 0} />
        <p role="status" className="count">
          {holders ? holdersCount(list.shown, total, credential !== null) : 'Loading…'}
        </p>
      </div>
      <SelectionBar
        store={selection.store}
        matchCount={holders ? total : undefined}
        loadMatching={list.loadMatching}
        preset={credential ? { type: 'renew', choice: credential.credentialid } : { type: 'renew' }}
      />
      <VirtualGrid
        label={`Holders of ${title}`}
        rows={holders ?? NO_HOLDERS}
        rowKey={(h) => h.assignment.id}
        columns={holderColumnsOf(credential, names, list.today, soonDays)}
        size="short"
        {...selection.grid}
        rowLabel={(h) => (h.user ? `${h.user.lastname}, ${h.user.firstname}` : NOT_HERE.person)}
        onActivate={(h) => navigate('users', h.assignment.userid)}
        loading={holders === undefined}
        onEndReached={list.readMore}
        emptyText={
          effective === 'all'
            ? `Nobody holds ${title}.`
            : `No ${credential ? title : 'credential'} ${listWords}.`
        }
      />
    </section>
  );
}

function HolderWindowChoice({
  credential,
  effective,
  soonDays,
  onChoose,
}: {
  credential: CredentialRecord | null;
  effective: HolderWindow;
  soonDays: number;
  onChoose: (window: HolderWindow) => void;
}) {
  const week = weekOf(effective);
  return (
    <label>
      Show
      <select value={effective} onChange={(e) => onChoose(e.target.value as HolderWindow)}>
        {credential && <option value="all">All holders</option>}
        <option value="expired">Expired</option>
        {windowChoices(soonDays, effective).map((d) => (
          <option key={d} value={d}>
            Expiring within {plural(d, 'day')}
          </option>
        ))}
        {week !== null && <option value={effective}>Expiring in the week of {formatDate(week)}</option>}
      </select>
    </label>
  );
}

/** The site a dashboard link keeps the list to: `#/credentials/expired/site/3` (undefined while it is read). */
function useOpenedSite(db: FieldbookDb | null, params: readonly string[]): HolderSite | null | undefined {
  const at = params.indexOf('site');
  const siteid = at < 0 ? null : Number(params[at + 1]);
  return useLiveQuery(async () => {
    if (!db || siteid === null || !Number.isInteger(siteid)) return null;
    const [found, credentialids] = await Promise.all([db.sites.get(siteid), siteCredentialIds(db, siteid)]);
    return { sitename: found?.sitename ?? NOT_HERE.site, credentialids };
  }, [db, siteid]);
}

function openedWindow(params: readonly string[]): HolderWindow | null {
  if (params[0] === 'expired') return 'expired';
  if (params[0] === 'week' && /^\d{4}-\d{2}-\d{2}$/.test(params[1] ?? '')) return `week:${params[1]}`;
  const days = Number(params[1]);
  return params[0] === 'expiring' && Number.isInteger(days) && days > 0 ? `${days}` : null;
}

type SummaryCount = 'holders' | 'expired' | 'within30' | 'within60' | 'within90';

/** The credential list's columns: name, category, and how many hold it, expired or expiring. */
function credentialColumnsOf(
  count: (c: CredentialRecord, key: SummaryCount) => string,
): Column<CredentialRecord>[] {
  return [
    {
      id: 'name',
      header: 'Credential',
      width: 'minmax(10rem, 2fr)',
      render: (c) => (
        <a href={hrefFor('credentials', c.credentialid)} tabIndex={-1}>
          {c.credentialname}
        </a>
      ),
    },
    {
      id: 'category',
      header: 'Category',
      width: 'minmax(8rem, 1fr)',
      render: (c) => c.categoryname,
      fitText: (c) => c.categoryname,
    },
    { id: 'holders', header: 'Holders', width: '6.5rem', render: (c) => count(c, 'holders') },
    { id: 'expired', header: 'Expired', width: '6.5rem', render: (c) => count(c, 'expired') },
    { id: 'd30', header: '≤ 30 days', width: '7.5rem', render: (c) => count(c, 'within30') },
    { id: 'd60', header: '≤ 60 days', width: '7.5rem', render: (c) => count(c, 'within60') },
    { id: 'd90', header: '≤ 90 days', width: '7.5rem', render: (c) => count(c, 'within90') },
  ];
}

/** Every credential with its holders' counts and its name in words, and the categories, from the cache. */
function useCredentialCatalog(db: FieldbookDb | null) {
  const credentials = useLiveQuery(() => (db ? listCredentials(db) : Promise.resolve([])), [db]);
  const categories = useLiveQuery(() => (db ? listCredentialCategories(db) : Promise.resolve([])), [db]);
  const pendingVersion = usePendingVersion();
  const summaries = useLiveQuery(
    () => (db ? credentialSummaries(db) : Promise.resolve(new Map())),
    [db, pendingVersion],
  );
  const catalog = useCatalogNames(db);
  const names = useMemo(
    () => new Map((credentials ?? []).map((c) => [c.credentialid, credentialLabel(c, catalog)])),
    [credentials, catalog],
  );
  const count = (c: CredentialRecord, key: SummaryCount) =>
    formatCount(summaries?.get(c.credentialid)?.[key] ?? 0);
  return { credentials, categories, catalog, names, count };
}

export default function CredentialsView({ params }: RouteProps) {
  const db = useActiveDb();
  const [categoryid, setCategoryid] = useState<number | null>(null);
  // the window of the holders list follows the coordinator from one credential to the next
  const [carried, setCarried] = useState<HolderWindow | null>(null);
  const { credentials, categories, catalog, names, count } = useCredentialCatalog(db);
  const openedSite = useOpenedSite(db, params);
  if (!db) return null;
  // `#/credentials/42`, or a list the dashboard opens: `#/credentials/expiring/7`, `#/credentials/expired`,
  // `#/credentials/week/2026-03-08`
  const opened = openedWindow(params);
  // a list kept to one site waits for that site's credentials (never shows every site's meanwhile)
  const site = opened === null ? null : openedSite;
  // a list a link opened (the dashboard's "expiring within 30 days") is carried on too
  if (opened !== null && opened !== carried) setCarried(opened);
  const selectedId = params[0] === undefined || opened ? null : Number(params[0]);
  const selected = credentials?.find((c) => c.credentialid === selectedId) ?? null;
  const shown = (credentials ?? []).filter((c) => categoryid === null || c.categoryid === categoryid);
  return (
    <section className="view" aria-labelledby="credentials-heading">
      <h1 id="credentials-heading">Credentials</h1>
      <div className="toolbar">
        <label>
          Category
          <select
            value={categoryid ?? ''}
            onChange={(e) => setCategoryid(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">All categories</option>
            {/* every site has its own categories of the same names: the site tells them apart */}
            {categories?.map((c) => (
              <option key={c.categoryid} value={c.categoryid}>
                {c.categoryname} ({siteName(c.siteid, catalog)})
              </option>
            ))}
          </select>
        </label>
        <p role="status" className="count">
          {plural(shown.length, 'credential')}
        </p>
      </div>
      <VirtualGrid
        label="Credential list"
        rows={shown}
        rowKey={(c) => c.credentialid}
        columns={credentialColumnsOf(count)}
        size="compact"
        onActivate={(c) => navigate('credentials', c.credentialid)}
        loading={credentials === undefined}
        emptyText="No credential in the cache."
      />
      {site !== undefined && (
        <Holders
          key={`${selected?.credentialid ?? 'all'} ${opened ?? ''} ${site?.sitename ?? ''}`}
          db={db}
          credential={selected}
          names={names}
          opened={opened ?? carried}
          onChoose={setCarried}
          site={site}
        />
      )}
      {selected && <HeldOnDay key={selected.credentialid} db={db} credential={selected} />}
    </section>
  );
}
