/**
 * The words of the sync's state, in one place, so the header and the sync
 * panel never disagree: progress as "N of M", and an outcome that says what a
 * cancelled pass kept rather than what it did not do.
 */
import type { SyncFinishedEvent, SyncPhase, SyncProgress } from '../../shared/ipc.ts';
import { COLLECTIONS } from '../../shared/records.ts';
import { COLLECTION_LABEL } from '../features/settings/labels.ts';
import { formatCount } from '../app/format.ts';
import type { SyncUiState } from './store.ts';
import { plural } from '../app/words.ts';

const PHASE_TEXT: Record<SyncPhase, string> = {
  planning: 'Planning the sync…',
  fetching: 'Syncing…',
  // the last pages are still being written into the cache: the pass is not over
  finishing: 'Finishing…',
  completed: 'Finishing…',
  cancelled: 'Stopping…',
  failed: 'Stopping…',
};

/** "Syncing… 1,234 of 5,000 records" while a pass runs. */
export function progressText(progress: SyncProgress | null): string {
  if (!progress) return 'Starting…';
  const { records, total } = progress;
  // as formatProgress: a total already passed is an estimate, left out
  const counted =
    total !== null && total > 0 && total >= records
      ? `${formatCount(records)} of ${plural(total, 'record')}`
      : plural(records, 'record');
  return `${PHASE_TEXT[progress.phase]} ${counted}`;
}

/** "Users and Feature access not synced" for the collections a completed pass could not read (null: none). */
function notSyncedText(collections: SyncFinishedEvent['collections']): string | null {
  const failed = COLLECTIONS.filter((c) => collections[c]?.state === 'failed').map(
    (c) => COLLECTION_LABEL[c],
  );
  if (failed.length === 0) return null;
  const named = failed.length <= 3 ? failed : [...failed.slice(0, 2), `${failed.length - 2} more`];
  const list = named.length === 1 ? named[0] : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return `${list} not synced`;
}

/**
 * The outcome line of the last pass (null while one runs or before any); a completed pass names the lists it could not
 * read.
 */
export function outcomeText(
  state: Pick<SyncUiState, 'running' | 'finished' | 'rowsWritten' | 'rowsRemoved'>,
): string | null {
  const finished = state.finished;
  if (state.running || !finished) return null;
  const records = plural(state.rowsWritten, 'record');
  const removed = state.rowsRemoved > 0 ? `, ${formatCount(state.rowsRemoved)} removed` : '';
  const written = `${records} written${removed}`;
  switch (finished.outcome) {
    case 'completed': {
      const notSynced = notSyncedText(finished.collections);
      return notSynced
        ? `Sync completed with errors: ${notSynced} (see Collections). ${written}.`
        : `Sync completed. ${written}.`;
    }
    case 'failed':
      return `Sync failed. ${written}; what was stored is kept.`;
    case 'cancelled':
      // what was written stays: the coordinator needs that, not the engine's count of pages
      return `Sync paused: ${plural(state.rowsWritten, 'record')} written and kept; Resume sync continues from there.`;
  }
}
