/**
 * Above the preview, what the cache cannot answer for: no sync has read
 * everyone at the kept sites yet (unknown-cache.ts: nobody is created, with a
 * Sync button; the preview is made again when the sync ends), and the sites
 * not kept on this laptop (not-kept.ts).
 */
import { useSession } from '../../app/session.ts';
import { useSyncState } from '../../sync/store.ts';
import { ImportNotKeptRead } from './ImportNotKeptRead.tsx';
import type { SitesNotKept } from './not-kept.ts';

function CacheUnknown({ reason }: { reason: string }) {
  const sync = useSession((s) => s.sync);
  const workOffline = useSession((s) => s.activeProfile?.workOffline ?? false);
  const running = useSyncState((s) => s.running);
  const held = useSyncState((s) => s.held !== null);
  return (
    <div role="alert" className="notice import-cache-unknown">
      <p>
        {reason}. Nobody is created until a sync has read everyone: rows that would add a person are listed as
        skipped. Changes to people already on this laptop can be queued.
      </p>
      <button
        type="button"
        onClick={() => void sync?.start()}
        disabled={!sync || workOffline || running || held}
      >
        {running ? 'Syncing…' : 'Sync'}
      </button>
      {workOffline && <span className="muted"> Work offline is on: turn it off in the header to sync.</span>}
    </div>
  );
}

export function ImportCacheNotices({
  unknownCache,
  notKept,
}: {
  unknownCache: string | null;
  notKept: SitesNotKept | null;
}) {
  return (
    <>
      {unknownCache && <CacheUnknown reason={unknownCache} />}
      {notKept && <ImportNotKeptRead notKept={notKept} />}
      {notKept?.unchecked && (
        <p role="alert" className="import-not-kept">
          {notKept.unchecked}. Until then, rows that would add a person, a username or an e-mail are not
          queued (they are listed as skipped); the rest can be.
        </p>
      )}
    </>
  );
}
