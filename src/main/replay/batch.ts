/**
 * `replay:executeBatch`: many queued operations in one message. The records
 * the batch's updates share are read through their list routes first
 * (list-reads.ts: only when that costs fewer requests), then each op is
 * replayed exactly as `replay:execute` replays it (index.ts), in the network
 * slots shared by every batch, and its outcome is handed on as soon as it is known.
 */
import type { ReplayOutcome, ReplayRequest } from '../../shared/ipc.ts';
import { failureOutcome } from '../../shared/replay-queue/engine.ts';
import type { Semaphore } from '../../shared/semaphore.ts';
import { executeReplay, type ReplayClient } from './index.ts';
import type { ListReads } from './list-reads.ts';
import { listRouteOf } from './kinds.ts';

/** Ops talking to the API at once, over all batches (the engine's concurrency, as with `replay:execute`). */
export const NETWORK_SLOTS = 4;

export interface BatchOptions {
  reads: ListReads;
  /** the network slots shared by every batch (NETWORK_SLOTS of them); a list read goes `first` */
  slots: Semaphore;
  /** each op's outcome, once, as soon as it is known */
  onOutcome: (opId: string, outcome: ReplayOutcome) => void | Promise<void>;
  signal?: AbortSignal;
}

export async function executeBatch(
  client: ReplayClient,
  requests: readonly ReplayRequest[],
  opts: BatchOptions,
): Promise<void> {
  const { reads, slots, signal } = opts;
  // the list reads take network slots too; ops that need none of them go meanwhile
  const prefetched = reads.prefetch(client, requests, signal);
  /** once the token is refused (801/802), the ops not yet sent are not sent: they pause with the same answer */
  let paused: ReplayOutcome | null = null;
  await Promise.all(
    requests.map(async (req) => {
      // an op waits for the list only when it has no copy it could use meanwhile (the read refreshes copies still good)
      if (!req.verifyFirst && listRouteOf(req.op) && !reads.hasCopy(req.op)) await prefetched;
      let outcome: ReplayOutcome;
      try {
        outcome = await slots.run(async () => {
          if (paused) return paused;
          const own = await executeReplay(client, req, signal, reads);
          if (own.status === 'paused') paused = own;
          return own;
        });
      } catch {
        // executeReplay answers every failure itself; anything else may have sent the write
        outcome = failureOutcome({ code: 'internal', message: 'The operation could not be replayed.' });
      }
      await opts.onOutcome(req.opId, outcome);
    }),
  );
}
