/** Sync now / resume / cancel, progress with "N of M" and rate, and the state of each collection. */
import { useLiveQuery } from 'dexie-react-hooks';
import { COLLECTIONS, type CollectionName } from '../../../shared/records.ts';
import type { CollectionProgress } from '../../../shared/ipc.ts';
import type { FieldbookDb, SyncCollectionRow } from '../../db/index.ts';
import { useSession } from '../../app/session.ts';
import { syncStore, useSyncState, type SyncUiState } from '../../sync/store.ts';
import { formatCount, formatDateTime, formatProgress, formatRate } from '../../app/format.ts';
import { outcomeText, progressText } from '../../sync/status-text.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { plural } from '../../app/words.ts';
import { COLLECTION_LABEL, COLLECTION_STATE_LABEL } from './labels.ts';
import { SYNC_AFTER_HOLD } from '../../sync/hold.ts';

function CollectionsTable({
  rows,
  live,
  running,
}: {
  rows: SyncCollectionRow[];
  live: Partial<Record<CollectionName, CollectionProgress>>;
  running: boolean;
}) {
  const byName = new Map(rows.map((r) => [r.collection, r]));
  const shown = COLLECTIONS.filter((c) => byName.has(c) || live[c]);
  if (shown.length === 0) return <p>{running ? 'Waiting for the first records…' : 'Nothing synced yet.'}</p>;
  return (
    <table className="collections">
      <caption>Collections</caption>
      <thead>
        <tr>
          <th scope="col">Collection</th>
          <th scope="col">Last synced</th>
          <th scope="col">Records</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((c) => {
          const row = byName.get(c);
          const progress = live[c];
          const error = progress?.error ?? row?.lastError ?? null;
          return (
            <tr key={c}>
              <th scope="row">{COLLECTION_LABEL[c]}</th>
              <td>{formatDateTime(row?.lastSyncedAt)}</td>
              <td>
                {progress ? formatProgress(progress.records, progress.total) : formatCount(row?.total ?? 0)}
              </td>
              <td>
                {error ? (
                  <span className="error-text">{error.message}</span>
                ) : progress ? (
                  COLLECTION_STATE_LABEL[progress.state]
                ) : row?.lastSyncedAt ? (
                  COLLECTION_STATE_LABEL.complete
                ) : (
                  '—'
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SyncPanel({ db }: { db: FieldbookDb }) {
  const state = useSyncState((s) => s);
  const checkpoints = useLiveQuery(() => db.syncCheckpoints.count(), [db]) ?? 0;
  // a completed pass has cleared its checkpoints: the live count may not have caught up yet
  const interrupted = state.finished?.outcome === 'completed' && !state.running ? 0 : checkpoints;
  const collections = useLiveQuery(() => db.syncCollections.toArray(), [db]) ?? [];
  const progress = state.progress;
  return (
    <section className="panel" aria-labelledby="sync-heading">
      <h2 id="sync-heading">Sync</h2>
      <SyncActions state={state} interrupted={interrupted} />
      {state.running && <SyncProgress state={state} />}
      <SyncOutcome state={state} />
      <ErrorMessage error={state.error} onDismiss={() => syncStore.setState({ error: null })} />
      <CollectionsTable
        rows={collections}
        running={state.running}
        live={state.running ? (progress?.collections ?? {}) : (state.finished?.collections ?? {})}
      />
    </section>
  );
}

/** Sync now, resume, start afresh or cancel, and why a sync cannot start now. */
function SyncActions({ state, interrupted }: { state: SyncUiState; interrupted: number }) {
  const sync = useSession((s) => s.sync);
  const online = useSession((s) => s.connection?.online === true);
  const workOffline = useSession((s) => s.activeProfile?.workOffline === true);
  return (
    <div className="actions">
      {state.running ? (
        <button type="button" onClick={() => void sync?.cancel()}>
          Cancel sync
        </button>
      ) : (
        <>
          <button
            type="button"
            onClick={() => void sync?.start()}
            disabled={!sync || workOffline || state.held !== null}
          >
            {interrupted > 0 ? 'Resume sync' : 'Sync now'}
          </button>
          {interrupted > 0 && (
            <button
              type="button"
              onClick={() => void sync?.start({ fresh: true })}
              disabled={state.held !== null}
            >
              Start a full sync
            </button>
          )}
        </>
      )}
      {state.held !== null && !state.running && (
        <span className="muted" role="status">
          {state.startsAfterHold ? SYNC_AFTER_HOLD : state.held}
        </span>
      )}
      {workOffline ? (
        <span className="muted">Working offline: turn “Work offline” off in the header to sync.</span>
      ) : (
        !online &&
        !state.running && (
          <span className="muted">The site is not reachable right now; the cache stays available.</span>
        )
      )}
    </div>
  );
}

/** "N of M requests", or "N requests" when the sync did not plan them. */
function requestsText(progress: NonNullable<SyncUiState['progress']>): string {
  const { requests, plannedRequests } = progress;
  if (!plannedRequests) return plural(requests, 'request');
  return `${formatCount(requests)} of ${plural(plannedRequests, 'request')}`;
}

function SyncProgress({ state }: { state: SyncUiState }) {
  const progress = state.progress;
  const total = progress?.total ?? null;
  const done = progress?.records ?? 0;
  return (
    <div className="progress" aria-live="polite">
      <progress
        aria-label="Sync progress"
        max={total && total >= done ? total : undefined}
        value={total && total >= done ? done : undefined}
      />
      <p role="status">
        {progressText(progress)}
        {progress && progress.rate > 0 ? ` · ${formatRate(progress.rate)}` : ''}
        {progress ? ` · ${requestsText(progress)}` : ''}
        {state.resumed ? ' · resumed' : ''}
      </p>
      {progress?.notice && <p className="warn">{progress.notice}</p>}
    </div>
  );
}

function SyncOutcome({ state }: { state: SyncUiState }) {
  const outcomeLine = outcomeText(state);
  // a completed pass with lists it could not read is a warning, not a success
  const someNotSynced = Object.values(state.finished?.collections ?? {}).some((c) => c?.state === 'failed');
  if (!outcomeLine) return null;
  return (
    <p role="status" className={state.finished?.outcome === 'completed' && !someNotSynced ? 'ok' : 'warn'}>
      {outcomeLine}
      {state.pagesWritten > 0 ? (
        <span className="muted"> (written in {(state.writeMs / 1000).toFixed(1)} s)</span>
      ) : null}
    </p>
  );
}
