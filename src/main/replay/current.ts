/**
 * `replay:read`: the server's current state of an op's target, read exactly as
 * the replay reads it before a write (same routes, same validation), for the
 * undo preview's check. Reads only; an answer that cannot be trusted is an
 * error the user sees (a ReplayReadError carries it), never a guess.
 */
import type { OpSpec, RecordState } from '../../shared/ipc.ts';
import { scrubDeep } from '../secrets/scrub.ts';
import type { ReplayClient } from './read.ts';
import { readState } from './kinds.ts';

export async function readCurrent(
  client: ReplayClient,
  op: OpSpec,
  signal?: AbortSignal,
): Promise<RecordState> {
  // the record may quote anything the server holds: scrubbed like any answer that crosses to the renderer
  return scrubDeep(await readState(client, op, signal));
}
