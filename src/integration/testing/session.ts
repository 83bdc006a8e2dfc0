/**
 * Main and the renderer in one process, for the integration tests: main's real
 * handlers (sync engine, replay, profiles), the preload's own `window.fieldbook`
 * object over an in-process carrier that clones every payload as IPC does, and the
 * renderer's real sync controller writing a Dexie database (fake-indexeddb), against
 * a reference server started by the test.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import type { EventName, EventPayloads, FieldbookApi, SyncPageEvent } from '../../shared/ipc.ts';
import type { RunningServer } from '../../server/index.ts';
import {
  cacheTables,
  COMPARED_TABLES,
  differences,
  serverTables,
  summariseDifferences,
  type Row,
} from '../../server/testing/tables.ts';
import { createHandlers } from '../../main/handlers.ts';
import { dispatch } from '../../main/ipc/dispatch.ts';
import { MemoryKeychain } from '../../main/secrets/keychain.ts';
import { createFieldbookApi, type IpcRendererLike } from '../../preload/api.ts';
import { createSyncController, type SyncController } from '../../renderer/sync/controller.ts';
import { createSyncStore, type SyncStore } from '../../renderer/sync/store.ts';
import type { FieldbookDb } from '../../renderer/db/index.ts';
import { freshDb } from '../../renderer/testing/fixtures.ts';

export interface Session {
  api: FieldbookApi;
  /** the demo profile main made for the server */
  profileId: string;
  db: FieldbookDb;
  store: SyncStore;
  controller: SyncController;
  /** every sync:page event main sent, as the renderer received it */
  pages: SyncPageEvent[];
  close(): Promise<void>;
}

/**
 * A session whose demo profile points at `server`, with the full token; `limit`: the sync's page size; `now`: main's
 * clock.
 */
export async function openSession(server: RunningServer, limit: number, now?: () => Date): Promise<Session> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldbook-integration-'));
  const token = server.tokens.find((t) => t.access === 'full')!.token;
  const handlers = createHandlers({
    settingsDir: dir,
    keychain: new MemoryKeychain(),
    fetch: globalThis.fetch,
    demo: { start: async () => ({ baseUrl: server.baseUrl, token }) },
    sync: { limit },
    api: { maxRetries: 0 },
    ...(now ? { now } : {}),
  });
  const pages: SyncPageEvent[] = [];
  const listeners = new Map<string, Set<(event: unknown, payload: unknown) => void>>();
  const ctx = {
    emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
      const copy = structuredClone(payload);
      if (event === 'sync:page') pages.push(copy as SyncPageEvent);
      for (const listener of listeners.get(event) ?? []) setImmediate(() => listener(null, copy));
    },
  };
  const ipc: IpcRendererLike = {
    invoke: async (channel, arg) =>
      structuredClone(await dispatch(handlers, channel, structuredClone(arg), ctx, () => undefined)),
    on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  const api = createFieldbookApi(ipc);
  const started = await api['demo:start']();
  if (!started.ok) throw new Error(started.error.message);
  const db = freshDb();
  const store = createSyncStore();
  const controller = createSyncController(api, db, store);
  return {
    api,
    profileId: started.value.id,
    db,
    store,
    controller,
    pages,
    async close() {
      controller.dispose();
      db.close();
      await handlers.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** One pass, to its end (its pruning included); it must complete. */
export async function syncToEnd(session: Session, timeoutMs = 240_000): Promise<void> {
  await session.controller.start();
  await vi.waitFor(() => expect(session.store.getState().running).toBe(false), {
    timeout: timeoutMs,
    interval: 50,
  });
  await session.controller.idle();
  expect(session.store.getState().error).toBeNull();
  expect(session.store.getState().finished?.outcome).toBe('completed');
}

async function cacheRows(db: FieldbookDb): Promise<Record<string, Row[]>> {
  const rows: Record<string, Row[]> = {};
  for (const table of COMPARED_TABLES) rows[table] = (await db.table(table).toArray()) as Row[];
  return rows;
}

/** Every table of the cache equals the server's own data (of `siteids`, or every site the token sees). */
export async function expectCacheEqualsServer(
  session: Session,
  server: RunningServer,
  siteids?: number[],
): Promise<void> {
  const { summary, shown } = summariseDifferences(
    differences(cacheTables(await cacheRows(session.db)), serverTables(server, siteids)),
  );
  expect(shown, summary).toEqual([]);
}
