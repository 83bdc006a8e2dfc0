/**
 * When the import found usernames or e-mails taken at sites not kept on this
 * laptop (main's identity index, which a sync reads again after 12 hours):
 * says when they were read, and reads them again on request, for a name
 * freed there since (a person renamed or removed at another site). The
 * preview is made again once that sync ends (useImportPlans).
 */
import { useSession } from '../../app/session.ts';
import { formatDateTime } from '../../app/format.ts';
import { useSyncState } from '../../sync/store.ts';
import type { SitesNotKept } from './not-kept.ts';

export function ImportNotKeptRead({ notKept }: { notKept: SitesNotKept }) {
  const sync = useSession((s) => s.sync);
  const offline = useSession((s) => s.activeProfile?.workOffline ?? false);
  const running = useSyncState((s) => s.running || s.held !== null);
  const taken = notKept.username.size + notKept.email.size;
  if (taken === 0 || notKept.readAt === null) return null;
  return (
    <p role="status" className="import-not-kept-read">
      Usernames and e-mails of the sites not kept on this laptop as a sync read them on{' '}
      {formatDateTime(notKept.readAt)} (read again every 12 hours).{' '}
      <button
        type="button"
        onClick={() => void sync?.start({ refreshIdentities: true })}
        disabled={!sync || offline || running}
      >
        {running ? 'Reading them again…' : 'Read them again now'}
      </button>
    </p>
  );
}
