/**
 * Acknowledging written pages to main (backpressure: main never runs far ahead of
 * the writes). A page is acknowledged only once its records are stored; the ones
 * written wait here and go together, one message per sync (at most
 * MAX_ACKS_PER_MESSAGE ids each). Not awaited: the next write need not wait for
 * the round trip.
 */
import type { AppError, FieldbookApi } from '../../shared/ipc.ts';
import { MAX_ACKS_PER_MESSAGE } from '../../shared/ipc-limits.ts';

export interface Acks {
  /** a page written: to be acknowledged with the next flush */
  written(page: { syncId: string; pageId: number }): void;
  /** sends what is written and not yet acknowledged */
  flush(): void;
  pending(): number;
}

export function createAcks(api: Pick<FieldbookApi, 'sync:ack'>, onError: (error: AppError) => void): Acks {
  const unacked: { syncId: string; pageId: number }[] = [];
  return {
    written(page) {
      unacked.push({ syncId: page.syncId, pageId: page.pageId });
    },
    flush() {
      const bySync = new Map<string, number[]>();
      for (const { syncId, pageId } of unacked.splice(0)) {
        const ids = bySync.get(syncId) ?? [];
        ids.push(pageId);
        bySync.set(syncId, ids);
      }
      for (const [syncId, ids] of bySync) {
        for (let i = 0; i < ids.length; i += MAX_ACKS_PER_MESSAGE) {
          void api['sync:ack']({ syncId, pageIds: ids.slice(i, i + MAX_ACKS_PER_MESSAGE) }).then((result) => {
            if (!result.ok && result.error.code !== 'cancelled') onError(result.error);
          });
        }
      }
    },
    pending: () => unacked.length,
  };
}
