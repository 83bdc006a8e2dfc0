/**
 * "Sites kept on this laptop": which of the sites the token sees this profile
 * keeps. Adding one syncs it; taking one off removes its records from the
 * cache (in small steps), refused while it has unsent edits in the Outbox.
 */
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AppError, ProfileSites, ProfileSummary } from '../../../shared/ipc.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import type { FieldbookDb } from '../../db/index.ts';
import { request, sessionStore, useSession } from '../../app/session.ts';
import { hrefFor } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import { formatCount } from '../../app/format.ts';
import { syncStore, useSyncState } from '../../sync/store.ts';
import { removeSiteRecords, unsentEditsOfSite } from '../../sync/remove-site.ts';
import { SAVING_KEPT_SITES, whileSyncHeld } from '../../sync/hold.ts';

type Blocked = { site: string; unsent: number };

interface AskedSites {
  /** the sites the token sees (null while loading, offline, or when the platform's answer could not be used) */
  sites: ProfileSites | null;
  /** why the last ask failed (a malformed or refused answer), with a way to ask again */
  error: AppError | null;
  retry: () => void;
}

/**
 * The sites the token sees, asked of the server. Not asked while a sync runs:
 * the sync's own requests are the plan's, and the list is asked when it
 * finishes (a list already shown stays).
 */
function useProfileSites(profile: ProfileSummary, syncing: boolean): AskedSites {
  const api = useSession((s) => s.api);
  const online = useSession((s) => s.connection?.online === true);
  const checkedAt = useSession((s) => s.connection?.checkedAt);
  const [asked, setAsked] = useState<{ key: string; sites: ProfileSites } | null>(null);
  const [failed, setFailed] = useState<{
    key: string;
    checkedAt: string | undefined;
    error: AppError;
  } | null>(null);
  // asked again when the kept sites change (not when a sync merely ends); after a failure, when the connection is
  // checked again
  const key = `${profile.id}:${profile.keptSites?.join(',') ?? 'all'}`;
  const settled = asked?.key === key || (failed?.key === key && failed.checkedAt === checkedAt);
  useEffect(() => {
    if (!api || !online || syncing || settled) return;
    let live = true;
    void api['profiles:sites']({ id: profile.id }).then((r) => {
      if (!live) return;
      if (r.ok) setAsked({ key, sites: r.value });
      else setFailed({ key, checkedAt, error: r.error });
    });
    return () => {
      live = false;
    };
  }, [api, online, syncing, settled, profile.id, key, checkedAt]);
  // the kept ones are the profile's own (main's settings), also when the list could not be asked again (offline)
  const sites = asked ? { ...asked.sites, keptSites: profile.keptSites ?? null } : null;
  return { sites, error: failed?.key === key && online ? failed.error : null, retry: () => setFailed(null) };
}

/** Takes the sites off this laptop, one after the other; null when one has unsent edits (nothing of it removed). */
async function removeSites(
  db: FieldbookDb,
  sites: ProfileSites['sites'],
  onProgress: (text: string) => void,
): Promise<Blocked | null> {
  for (const site of sites) {
    const unsent = (await unsentEditsOfSite(db, site.siteid)).length;
    if (unsent > 0) return { site: site.name, unsent };
  }
  for (const site of sites) {
    await removeSiteRecords(db, site.siteid, (p) =>
      onProgress(
        `Removing ${site.name} from this laptop: ${formatCount(p.removed)} of ${formatCount(p.total)} records…`,
      ),
    );
  }
  return null;
}

/** "All 40 sites are kept.", "The only site this account sees is kept.", "3 sites of 40 kept." */
function keptText(kept: number, seen: number): string {
  if (kept < seen) return `${plural(kept, 'site')} of ${formatCount(seen)} kept.`;
  return seen === 1 ? 'The only site this account sees is kept.' : `All ${plural(seen, 'site')} are kept.`;
}

/** What a save did: the sites removed, and those added while working offline (synced once it is off). */
function savedText(removed: ProfileSites['sites'], addedOffline: ProfileSites['sites']): string {
  const names = (sites: ProfileSites['sites']) => sites.map((s) => s.name).join(', ');
  const parts = [
    ...(removed.length > 0 ? [`${names(removed)}: removed from this laptop.`] : []),
    ...(addedOffline.length > 0
      ? [`${names(addedOffline)}: kept, and synced when you turn Work offline off.`]
      : []),
  ];
  return parts.length > 0 ? parts.join(' ') : 'Saved.';
}

function SiteChoice({
  sites,
  chosen,
  onToggle,
  disabled,
}: {
  sites: ProfileSites['sites'];
  chosen: Set<number>;
  onToggle: (id: number) => void;
  disabled: boolean;
}) {
  return (
    <fieldset className="kept-sites" disabled={disabled}>
      <legend>Sites you look after</legend>
      {sites.map((s) => (
        <label key={s.siteid}>
          <input type="checkbox" checked={chosen.has(s.siteid)} onChange={() => onToggle(s.siteid)} />{' '}
          {s.name}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Why the choice of sites is not shown: a sync runs, Work offline is on, the platform's answer could not be used, or no
 * connection.
 */
function SitesNotShown({
  running,
  workingOffline,
  error,
  retry,
}: {
  running: boolean;
  workingOffline: boolean;
  error: AppError | null;
  retry: () => void;
}) {
  if (error && !running && !workingOffline)
    return (
      <ErrorMessage
        error={{ ...error, message: `The list of sites could not be read. ${error.message}` }}
        onRetry={retry}
      />
    );
  const why = running
    ? 'The list of sites is asked of the platform when this sync finishes.'
    : workingOffline
      ? 'Work offline is on: the list of sites is asked of the platform when you turn it off.'
      : 'The list of sites needs a connection to the platform.';
  return <p className="muted">{why}</p>;
}

type SiteList = ProfileSites['sites'];

/**
 * Takes the removed sites off this laptop and saves the new list, while no sync may start: it would read
 * the old list and bring a removed site back. Null: a sync started meanwhile and nothing was changed.
 */
async function saveKeptSites(
  db: FieldbookDb,
  profile: ProfileSummary,
  change: { all: boolean; current: ReadonlySet<number>; removed: SiteList },
  onBusy: (text: string | null) => void,
) {
  const api = sessionStore.getState().api;
  if (!api) return null;
  const outcome = await whileSyncHeld(syncStore, SAVING_KEPT_SITES, async () => {
    const stop = await removeSites(db, change.removed, onBusy);
    if (stop) return { stop };
    // the last sync's per-collection counts no longer hold: the table shows what the cache now has
    if (change.removed.length > 0) syncStore.setState({ finished: null, progress: null });
    const siteids = change.all ? null : [...change.current];
    return { saved: await request(() => api['profiles:setKeptSites']({ id: profile.id, siteids })) };
  });
  return outcome?.value ?? null;
}

/** The sites kept on this laptop, as saved and as chosen, and saving the choice. */
function useKeptSites(db: FieldbookDb, profile: ProfileSummary, running: boolean) {
  const { sites, error: sitesError, retry } = useProfileSites(profile, running);
  const synced = useLiveQuery(() => db.syncCollections.count(), [db]) ?? 0;
  const [chosen, setChosen] = useState<Set<number> | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [blocked, setBlocked] = useState<Blocked | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const kept = sites ? new Set(sites.keptSites ?? sites.sites.map((s) => s.siteid)) : null;
  // a token that sees many people, never synced and keeping every site: ask rather than take all
  const asking = sites !== null && sites.manyRecords && sites.keptSites === null && synced === 0;
  const current = chosen ?? (asking ? new Set<number>() : kept);

  async function save() {
    if (!sessionStore.getState().api || !sites || !current || !kept) return;
    setBlocked(null);
    setDone(null);
    const removed = sites.sites.filter((s) => kept.has(s.siteid) && !current.has(s.siteid));
    const added = sites.sites.filter((s) => !kept.has(s.siteid) && current.has(s.siteid));
    setBusy('Saving…');
    const all = current.size === sites.sites.length;
    const outcome = await saveKeptSites(db, profile, { all, current, removed }, setBusy);
    setBusy(null);
    // a sync started meanwhile: nothing was changed (the button asks to wait for it)
    if (!outcome) return;
    if (outcome.stop) return setBlocked(outcome.stop);
    setChosen(null);
    if (!outcome.saved) return;
    const offline = outcome.saved.workOffline;
    setDone(savedText(removed, offline ? added : []));
    // working offline, the sync that brings the added sites in runs when Work offline is turned off
    if ((added.length > 0 || asking) && !offline) await sessionStore.getState().sync?.start();
  }
  return { sites, sitesError, retry, kept, asking, current, setChosen, busy, blocked, done, save };
}

export function KeptSitesPanel({ db, profile }: { db: FieldbookDb; profile: ProfileSummary }) {
  const running = useSyncState((s) => s.running);
  const workingOffline = useSession((s) => s.connection?.workingOffline === true);
  const { sites, kept, asking, current, busy, blocked, done, save, ...rest } = useKeptSites(
    db,
    profile,
    running,
  );
  if (!sites || !current)
    return (
      <SitesNotShown
        running={running}
        workingOffline={workingOffline}
        error={rest.sitesError}
        retry={rest.retry}
      />
    );
  const toggle = (id: number) => {
    const next = new Set(current);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    rest.setChosen(next);
  };
  const changed =
    !asking && kept !== null && (current.size !== kept.size || [...current].some((id) => !kept.has(id)));
  return (
    <div>
      {asking && (
        <p className="notice">
          This account sees a large organisation. Choose the sites you look after: only their people,
          credentials and training are kept on this laptop, and nothing is synced until you choose.
        </p>
      )}
      <SiteChoice sites={sites.sites} chosen={current} onToggle={toggle} disabled={busy !== null} />
      <p className="muted">
        {keptText(current.size, sites.sites.length)} Adding a site syncs it; taking one off removes its
        records from this laptop (nothing changes on the platform).
      </p>
      <div className="actions">
        <button
          type="button"
          onClick={() => void save()}
          disabled={busy !== null || running || current.size === 0 || !(changed || asking)}
        >
          {asking ? 'Keep these sites and sync' : 'Save sites'}
        </button>
        {running && <span className="muted">Wait for the sync to finish to change the sites.</span>}
      </div>
      {busy && <p role="status">{busy}</p>}
      {done && <p role="status">{done}</p>}
      {blocked && <UnsentChanges blocked={blocked} />}
    </div>
  );
}

function UnsentChanges({ blocked }: { blocked: Blocked }) {
  return (
    <p role="alert" className="error">
      {blocked.site} has {plural(blocked.unsent, 'unsent change')} in the Outbox: send or discard{' '}
      {blocked.unsent === 1 ? 'it' : 'them'} before taking the site off this laptop.{' '}
      <a href={hrefFor('outbox')}>Open the Outbox</a>
    </p>
  );
}
