/**
 * Per-collection progress of a sync, derived from the state of its tasks.
 * Pure: no I/O.
 */
import type { AppError, CollectionProgress, CollectionState } from '../../shared/ipc.ts';
import { COLLECTIONS, type CollectionName } from '../../shared/records.ts';
import { KIND_SPECS, TASK_KINDS, type TaskKind } from './tasks.ts';

export type TaskState = 'pending' | 'running' | 'complete' | 'failed';

export interface TaskStatus {
  kind: TaskKind;
  state: TaskState;
}

export interface CollectionCounters {
  records: number;
  pages: number;
}

/** Kinds whose records create tasks of `kind`, directly or not. */
export function ancestorsOf(kind: TaskKind): TaskKind[] {
  const out: TaskKind[] = [];
  const visit = (k: TaskKind) => {
    for (const parent of TASK_KINDS) {
      if (KIND_SPECS[parent].children.includes(k) && !out.includes(parent)) {
        out.push(parent);
        visit(parent);
      }
    }
  };
  visit(kind);
  return out;
}

/** Kinds whose pages fill `collection`. */
export function kindsFilling(collection: CollectionName): TaskKind[] {
  return TASK_KINDS.filter((k) => KIND_SPECS[k].fills.includes(collection));
}

export interface ProgressInput {
  tasks: Iterable<TaskStatus>;
  counters: Partial<Record<CollectionName, CollectionCounters>>;
  errors: Partial<Record<CollectionName, AppError>>;
  totals: Partial<Record<CollectionName, number>>;
  /** the sync stopped (cancel or fatal error) before finishing */
  stopped: 'cancelled' | 'failed' | null;
  /** why it stopped, when it failed */
  stoppedBy?: AppError;
}

/** What a list the failure stopped shows in Collections (the failure itself is said once, above them). */
const CUT_SHORT = 'Not synced: the sync stopped before this list was read to its end.';

export function collectionProgress(
  input: ProgressInput,
): Partial<Record<CollectionName, CollectionProgress>> {
  const byKind = new Map<TaskKind, TaskState[]>();
  for (const t of input.tasks) {
    const list = byKind.get(t.kind) ?? [];
    list.push(t.state);
    byKind.set(t.kind, list);
  }
  const statesOf = (kinds: TaskKind[]) => kinds.flatMap((k) => byKind.get(k) ?? []);
  const out: Partial<Record<CollectionName, CollectionProgress>> = {};

  for (const collection of COLLECTIONS) {
    const kinds = kindsFilling(collection);
    const own = statesOf(kinds);
    const upstream = statesOf([...new Set(kinds.flatMap(ancestorsOf))]);
    const unfinished = [...own, ...upstream].some((s) => s === 'pending' || s === 'running');
    // a list the stop cut short is 'failed' with no error of its own: not read to its end either
    const cutShort = [...own, ...upstream].some((s) => s === 'failed');
    let state: CollectionState;
    if (input.errors[collection]) state = 'failed';
    else if ((unfinished || cutShort) && input.stopped)
      state = input.stopped === 'cancelled' ? 'cancelled' : 'failed';
    else if (own.includes('running') || (unfinished && own.length > 0)) state = 'running';
    else if (unfinished) state = 'pending';
    else if (cutShort) state = 'failed';
    else if (own.length === 0 && upstream.length === 0) state = input.stopped ?? 'pending';
    else state = 'complete';

    const counters = input.counters[collection] ?? { records: 0, pages: 0 };
    const progress: CollectionProgress = {
      state,
      records: counters.records,
      pages: counters.pages,
      total: input.totals[collection] ?? null,
    };
    const stoppedHere =
      state === 'failed' && input.stopped === 'failed' && input.stoppedBy
        ? { ...input.stoppedBy, message: CUT_SHORT }
        : undefined;
    const error = input.errors[collection] ?? stoppedHere;
    if (error) progress.error = error;
    out[collection] = progress;
  }
  return out;
}
