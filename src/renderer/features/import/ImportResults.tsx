/**
 * The results of the last import queued in this window: how its rows fared in
 * the replay, and a results file (the input's own columns plus status,
 * statuscode and message, CSV or XLSX) that can be fixed and dropped in again.
 * Kept until the app closes or another profile is opened.
 */
import { useCallback, useEffect, useState } from 'react';
import { create } from 'zustand';
import { profileStore } from '../../app/profile-stores.ts';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { formatCount } from '../../app/format.ts';
import { outboxStore } from '../../outbox/runtime.ts';
import { runOps } from './batch-ops.ts';
import { download } from '../outbox/download.ts';
import { writeInWorker } from './reader.ts';
import { resultCounts, resultsTableInSlices, type ImportRun } from './results.ts';

export const useLastImport = profileStore(create<{ run: ImportRun | null }>(() => ({ run: null })));

/** The run's ops (batch-ops.ts: right after queueing, the batch as stored; read back otherwise). */
async function opsOf(run: ImportRun): Promise<Map<string, OutboxOp>> {
  const { db, version } = outboxStore.getState();
  return db ? runOps({ db, version }, run) : new Map();
}

export function ImportResults() {
  const run = useLastImport((s) => s.run);
  const [counts, setCounts] = useState<Record<string, number> | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    let live = true;
    if (run) {
      void opsOf(run).then(async (ops) => {
        const next = await resultCounts(run, ops);
        if (live) setCounts(next);
      });
    }
    return () => {
      live = false;
    };
  }, [run, tick]);

  if (!run) return null;
  const save = async (format: 'csv' | 'xlsx') => {
    setBusy(true);
    setError(null);
    try {
      const table = await resultsTableInSlices(run, await opsOf(run));
      const base = run.fileName.replace(/\.[^.]+$/, '').replace(/-results$/, '');
      download(await writeInWorker(table, format, 'Results'), `${base}-results.${format}`);
      refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The results file could not be written.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="import-results-heading" className="import-results">
      <h2 id="import-results-heading">Results of {run.fileName}</h2>
      {counts && (
        <p role="status" aria-label="Import results">
          {Object.entries(counts)
            .map(([status, n]) => `${formatCount(n)} ${status}`)
            .join(', ')}
          .
        </p>
      )}
      <p>
        The results file has the file&apos;s own columns plus status, statuscode and message: fix the rows
        that failed and drop it here again.
      </p>
      <button type="button" onClick={refresh}>
        Refresh
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => void save('csv')}>
        Download results (CSV)
      </button>{' '}
      <button type="button" disabled={busy} onClick={() => void save('xlsx')}>
        Download results (XLSX)
      </button>
      {error && <p role="alert">{error}</p>}
    </section>
  );
}
