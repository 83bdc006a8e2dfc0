/**
 * A transfer-only pass: main's own sync engine and API client, in this
 * process, against the bench's reference server, every page acknowledged as
 * soon as it is sent (no renderer, nothing written). It makes the plan's
 * requests exactly as the app's main process would and reads, validates and
 * splits every page; what it measures is the plan: its requests and the bytes
 * of their answers (each answer's Content-Length), without filling a cache.
 */
import { ApiClient } from '../src/main/api/client.ts';
import { SyncEngine } from '../src/main/sync/engine.ts';
import type { SyncFinishedEvent, SyncPageEvent } from '../src/shared/ipc.ts';

export interface TransferPass {
  ms: number;
  requests: number;
  bytes: number;
  records: number;
  finished: SyncFinishedEvent;
}

/** One pass of the plan of a profile keeping `keptSites` (absent: every site the token sees). */
export async function transferOnlyPass(
  baseUrl: string,
  token: string,
  keptSites?: readonly number[],
): Promise<TransferPass> {
  let requests = 0;
  let bytes = 0;
  const counting: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    requests++;
    bytes += Number(res.headers.get('content-length') ?? 0);
    return res;
  };
  const client = new ApiClient({ baseUrl, token, fetch: counting });
  // pages go out only once run() has begun, when `engine` is set
  const engine: SyncEngine = new SyncEngine({
    syncId: 'bench-transfer-pass',
    client,
    emit: (event, payload) => {
      if (event !== 'sync:page') return;
      const { pageId } = payload as SyncPageEvent;
      setImmediate(() => engine.ack(pageId));
    },
    ...(keptSites ? { keptSites } : {}),
  });
  const started = performance.now();
  const finished = await engine.run();
  const ms = performance.now() - started;
  if (finished.outcome !== 'completed')
    throw new Error(
      `the transfer-only pass did not complete: ${finished.error?.message ?? finished.outcome}`,
    );
  const records = Object.values(finished.collections).reduce((n, c) => n + (c?.records ?? 0), 0);
  return { ms, requests, bytes, records, finished };
}
