/**
 * The benchmark page: served from the harness's origin beside the built app, so
 * it sees the app's IndexedDB, and imports the renderer's own database module
 * and query functions. The bench driver calls `window.fieldbookBench`.
 */
import { COLLECTIONS, type CollectionName } from '../../src/shared/records.ts';
import type { FieldbookDb } from '../../src/renderer/db/index.ts';
import { BENCH_PAGE_GLOBAL, type BenchPageApi } from '../page-api.ts';
import { openCache } from './cache.ts';
import { historyClose, historyDay, historyOpen, historySize } from './history.ts';
import { queryLatency } from './queries.ts';
import { keepSites } from './profile.ts';
import {
  replayClose,
  replayEnqueueLatency,
  replayIpcFloor,
  replayOpen,
  replayRound,
  replayTotals,
  replayWriteFloor,
} from './replay.ts';
import { floorClose, floorOpen, floorStage, floorWrite, readStretch } from './write-floor.ts';

let cache: Promise<FieldbookDb> | null = null;
const cached = (): Promise<FieldbookDb> => (cache ??= openCache());

const api: BenchPageApi = {
  keepSites,
  async cacheKeys(collection) {
    return (await (await cached()).table(collection).toCollection().primaryKeys()) as (string | number)[];
  },
  async cacheCounts() {
    const db = await cached();
    const counts: Partial<Record<CollectionName, number>> = {};
    for (const collection of COLLECTIONS) counts[collection] = await db.table(collection).count();
    return counts;
  },
  async sampleKeys(collection, every, offset) {
    const keys = (await (await cached()).table(collection).toCollection().primaryKeys()) as (
      string | number
    )[];
    return keys.filter((_, i) => i % every === offset % every);
  },
  async queryLatency(runs, warmup) {
    return queryLatency(await cached(), runs, warmup);
  },
  async readStretch(collection, afterKey, count) {
    return readStretch(await cached(), collection, afterKey, count);
  },
  floorOpen,
  floorStage,
  floorWrite,
  floorClose,
  replayOpen,
  replayIpcFloor,
  replayRound,
  replayWriteFloor,
  replayEnqueueLatency,
  replayTotals,
  replayClose,
  historyOpen,
  historyDay,
  historySize,
  historyClose,
};

Object.defineProperty(window, BENCH_PAGE_GLOBAL, { value: Object.freeze(api), enumerable: true });
document.getElementById('state')!.textContent = 'Ready.';
