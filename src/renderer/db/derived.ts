/**
 * Fields the cache adds to records for indexing, derived from the record itself.
 * `openDueIso` is the due date of training that is not done ('' when done or
 * undated), so "overdue" and "due within N days" are index ranges that never
 * read completed training.
 *
 * A DBCore middleware adds them on every write, whoever writes (the sync, the
 * outbox refreshing a record), and the sync's changed-only comparison derives
 * the incoming records the same way first.
 */
import type { DBCore, DBCoreMutateRequest, Middleware } from 'dexie';
import type { CollectionName, TrainingAssignmentRecord } from '../../shared/records.ts';
import { isTrainingDone } from '../app/compliance.ts';

export interface CachedTrainingAssignment extends TrainingAssignmentRecord {
  /** derived on write: dueIso while not done, else '' */
  openDueIso?: string;
}

export function openDueIso(t: Pick<TrainingAssignmentRecord, 'dueIso' | 'course_status'>): string {
  return isTrainingDone(t) ? '' : t.dueIso;
}

function deriveTraining(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const t = value as TrainingAssignmentRecord;
  return { ...t, openDueIso: openDueIso(t) };
}

/** Records as the cache stores them (pure). */
export function withDerivedFields<T>(collection: CollectionName, records: readonly T[]): T[] {
  if (collection !== 'trainingAssignments') return records as T[];
  return records.map((r) => deriveTraining(r) as T);
}

function deriveRequest(req: DBCoreMutateRequest): DBCoreMutateRequest {
  if (req.type !== 'put' && req.type !== 'add') return req;
  return { ...req, values: req.values.map(deriveTraining) };
}

export const derivedFieldsMiddleware: Middleware<DBCore> = {
  stack: 'dbcore',
  name: 'derivedFields',
  create(down) {
    return {
      ...down,
      table(name) {
        const table = down.table(name);
        if (name !== 'trainingAssignments') return table;
        return { ...table, mutate: (req) => table.mutate(deriveRequest(req)) };
      },
    };
  },
};
