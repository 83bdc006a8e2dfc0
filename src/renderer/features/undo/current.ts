/**
 * What each record of an undo preview holds now: the server's answer through
 * `replay:read` when online, the cache's copy when offline (the undo's ops
 * are then checked again by the replay before they are sent). Records are
 * read a few at a time; one that cannot be read is left out, with its error.
 */
import type { AppError, FieldbookApi, OpSpec, RecordState } from '../../../shared/ipc.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { rendererKindOf } from '../../op-kinds.ts';

const PARALLEL_READS = 4;

/** The cache's copy of an op's target, in the op's field names (as the replay reads the server's): its kind's read. */
export async function cachedState(db: FieldbookDb, op: OpSpec): Promise<RecordState> {
  return rendererKindOf(op).cachedState(db, op);
}

export interface ReadResult {
  now: Map<string, RecordState>;
  /** records that could not be read, by record key */
  errors: Map<string, AppError>;
}

export type ReadSource =
  { online: true; api: Pick<FieldbookApi, 'replay:read'> } | { online: false; db: FieldbookDb };

export async function readRecords(
  reads: ReadonlyMap<string, OpSpec>,
  source: ReadSource,
  onProgress: (done: number) => void = () => undefined,
): Promise<ReadResult> {
  const result: ReadResult = { now: new Map(), errors: new Map() };
  const queue = [...reads.entries()];
  let done = 0;
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [key, op] = next;
      if (source.online) {
        const answer = await source.api['replay:read']({ op });
        if (answer.ok) result.now.set(key, answer.value);
        else result.errors.set(key, answer.error);
      } else {
        result.now.set(key, await cachedState(source.db, op));
      }
      onProgress(++done);
    }
  };
  await Promise.all(Array.from({ length: source.online ? PARALLEL_READS : 1 }, worker));
  return result;
}
