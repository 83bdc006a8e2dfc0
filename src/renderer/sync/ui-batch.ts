/**
 * The sync's UI state updated at most every `everyMs` while pages stream in:
 * a resync of unchanged pages moves hundreds of pages a second, and a render
 * of the sync panel per page (two: the page's counters and main's progress)
 * would cost more than the pages themselves. A change of phase (started,
 * finishing, ended) is shown at once.
 */
import type { SyncProgress } from '../../shared/ipc.ts';
import type { SyncUiState } from './store.ts';

interface Store {
  setState(partial: Partial<SyncUiState> | ((s: SyncUiState) => Partial<SyncUiState>)): void;
}

const isRunning = (phase: SyncProgress['phase']): boolean =>
  phase === 'planning' || phase === 'fetching' || phase === 'finishing';

export function createUiBatch(store: Store, everyMs = 100) {
  let rows = 0;
  let pages = 0;
  let ms = 0;
  let progress: SyncProgress | null = null;
  let shownPhase: SyncProgress['phase'] | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function flush(): void {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (pages > 0) {
      const [r, p, m] = [rows, pages, ms];
      store.setState((s) => ({
        rowsWritten: s.rowsWritten + r,
        pagesWritten: s.pagesWritten + p,
        writeMs: s.writeMs + m,
      }));
      rows = pages = ms = 0;
    }
    if (progress) {
      const shown = progress;
      progress = null;
      shownPhase = shown.phase;
      // a final progress event does not end the pass: finishPass does, once its pages are written
      store.setState((s) => ({
        progress: shown,
        running: s.running || isRunning(shown.phase),
        syncId: shown.syncId,
      }));
    }
  }

  function later(): void {
    timer ??= setTimeout(flush, everyMs);
  }

  return {
    /** a page was stored: `rowsWritten` records written in `took` ms */
    page(rowsWritten: number, took: number): void {
      rows += rowsWritten;
      pages += 1;
      ms += took;
      later();
    },
    progress(next: SyncProgress): void {
      progress = next;
      if (next.phase !== shownPhase) flush();
      else later();
    },
    flush,
    /** a new pass: its first progress is shown at once */
    reset(): void {
      flush();
      shownPhase = null;
    },
  };
}
