/**
 * Chromium for the benchmarks: Debian's binary, a profile folder that outlives
 * one browser process (so a cold start can reopen the same IndexedDB), and an
 * observer of the harness's WebSocket that notes what the sync streamed
 * without parsing the pages (the renderer's thread is what is being measured).
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import type { CollectionName } from '../src/shared/records.ts';
import type { SyncFinishedEvent } from '../src/shared/ipc.ts';
import type {
  BenchChange,
  BenchPageApi,
  BenchUser,
  HistoryCache,
  HistoryDay,
  HistorySize,
  QueryTimings,
  RecordStretch,
  ReplayRound,
  ReplayTotals,
} from './page-api.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchChromium(userDataDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 800 },
  });
}

/**
 * Page-side observer, installed before the app's first script (init scripts are
 * not subject to the page's CSP). Counts `sync:page` messages per collection from
 * the message head alone, and keeps each `sync:finished` payload.
 */
export const OBSERVE_SYNC = `(() => {
  const seen = { messages: {}, emptyMessages: 0, emptyPages: 0, finished: [] };
  window.__benchSync = seen;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        const text = typeof event.data === 'string' ? event.data : '';
        if (text.startsWith('{"event":"sync:page"')) {
          const head = /"collection":"(\\w+)","records":\\[(\\])?/.exec(text.slice(0, 2000));
          const collection = head ? head[1] : 'unknown';
          if (head && head[2]) {
            seen.emptyMessages += 1;
            // one message may stand for a run of unchanged pages: "also" (at the end) names the others
            const also = /"also":\\[([\\d,]*)\\]/.exec(text.slice(-2000));
            seen.emptyPages += 1 + (also && also[1] ? also[1].split(',').length : 0);
          }
          else seen.messages[collection] = (seen.messages[collection] || 0) + 1;
        } else if (text.startsWith('{"event":"sync:finished"')) {
          seen.finished.push(JSON.parse(text).payload);
        }
      });
    }
  };
})();`;

/** Page-side: every long task (Long Tasks API) from now on, as [startTime, duration] in `window.__longTasks`. */
export const LONG_TASKS = `(() => {
  window.__longTasks = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
  });
  observer.observe({ type: 'longtask', buffered: true });
})()`;

/**
 * Page-side stamp of the first rendered row of the users list: milliseconds
 * since the navigation started, taken at the frame after the row appeared.
 */
export const STAMP_FIRST_USERS_ROW = `(() => {
  const grid = '[role="grid"][aria-label="Users"]';
  const row = ' [role="rowgroup"] [role="row"]';
  const observer = new MutationObserver(() => {
    if (window.__firstUsersRowAt === undefined && document.querySelector(grid + row)) {
      window.__firstUsersRowAt = -1;
      requestAnimationFrame(() => { window.__firstUsersRowAt = performance.now(); });
    }
    // the cache's own rows: the grid no longer busy with the screen kept from the last visit
    if (window.__cacheUsersRowAt === undefined && document.querySelector(grid + ':not([aria-busy="true"])' + row)) {
      window.__cacheUsersRowAt = -1;
      observer.disconnect();
      requestAnimationFrame(() => { window.__cacheUsersRowAt = performance.now(); });
    }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-busy'] });
})();`;

export interface SyncObservation {
  /** non-empty sync:page messages per collection */
  messages: Partial<Record<CollectionName, number>>;
  emptyMessages: number;
  /** the pages those messages stand for */
  emptyPages: number;
  finished: SyncFinishedEvent[];
}

export async function syncObservation(page: Page): Promise<SyncObservation> {
  return page.evaluate('window.__benchSync');
}

/**
 * Polls a page expression until it is truthy and returns its value. Evaluated
 * over CDP (page.evaluate): Playwright's waitForFunction evaluates its predicate
 * with eval inside the page, which the app's CSP rightly refuses.
 */
export async function waitUntil<T>(
  page: Page,
  expression: string,
  timeoutMs: number,
  intervalMs = 50,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await page.evaluate<T>(expression);
    if (value) return value;
    if (performance.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export async function waitForFinishedSyncs(page: Page, count: number, timeoutMs: number): Promise<void> {
  await waitUntil(page, `(window.__benchSync?.finished.length ?? 0) >= ${count}`, timeoutMs);
}

/** Milliseconds from the navigation's start to the first rendered row of the users list (stamped in the page). */
export async function firstUsersRowAt(page: Page, timeoutMs: number): Promise<number> {
  return Number(
    await waitUntil<number>(page, 'window.__firstUsersRowAt > 0 && window.__firstUsersRowAt', timeoutMs, 20),
  );
}

export interface ColdStarts {
  /** to the first rendered row (the screen kept from the last visit, when there is one) */
  firstRow: number[];
  /** to the first row the cache itself answered */
  cacheRow: number[];
}

/**
 * Cold starts of the users list: each a new browser process on the same
 * profile, timed from navigation. One visit comes first, not counted: the
 * coordinator used the list before closing the app (the list keeps its first
 * screen then, as it does for them). Each page closes once the list is kept.
 */
export async function coldStartsOfUsersList(
  relaunch: () => Promise<BrowserContext>,
  url: string,
  runs: number,
  timeoutMs: number,
): Promise<ColdStarts> {
  const out: ColdStarts = { firstRow: [], cacheRow: [] };
  for (let i = 0; i <= runs; i++) {
    const context = await relaunch();
    const app = await context.newPage();
    await app.addInitScript(STAMP_FIRST_USERS_ROW);
    await app.goto(url);
    const first = await firstUsersRowAt(app, timeoutMs);
    const cache = await cacheUsersRowAt(app, timeoutMs);
    if (i > 0) {
      out.firstRow.push(first);
      out.cacheRow.push(cache);
    }
    await app.close();
  }
  return out;
}

/**
 * Milliseconds from the navigation's start to the first row the cache itself
 * answered (not the screen kept from the last visit), once the kept screen is
 * saved again for the next start (as when a coordinator closes the app after
 * using the list).
 */
export async function cacheUsersRowAt(page: Page, timeoutMs: number): Promise<number> {
  const at = Number(
    await waitUntil<number>(page, 'window.__cacheUsersRowAt > 0 && window.__cacheUsersRowAt', timeoutMs, 20),
  );
  await waitUntil(
    page,
    `Object.keys(localStorage).some((k) => k.startsWith('fieldbook.firstScreen.'))`,
    timeoutMs,
    50,
  );
  return at;
}

/** Renderer JS heap after a full garbage collection (CDP), in bytes. */
export async function heapAfterGc(
  context: BrowserContext,
  page: Page,
): Promise<{ used: number; total: number }> {
  const cdp = await context.newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    const usage = await cdp.send('Runtime.getHeapUsage');
    return { used: usage.usedSize, total: usage.totalSize };
  } finally {
    await cdp.detach();
  }
}

type Api = { fieldbookBench: BenchPageApi };

/** How busy the page's main thread was (CDP Performance.getMetrics), in seconds since `start()`. */
export async function mainThreadMeter(
  context: BrowserContext,
  page: Page,
): Promise<{ stop(): Promise<{ taskSeconds: number; scriptSeconds: number }> }> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const read = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const value = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    return { task: value('TaskDuration'), script: value('ScriptDuration') };
  };
  const before = await read();
  return {
    async stop() {
      const after = await read();
      await cdp.detach();
      return { taskSeconds: after.task - before.task, scriptSeconds: after.script - before.script };
    },
  };
}

/** Calls into the benchmark page (bench/browser); each function runs in the page. */
export function benchPage(page: Page) {
  return {
    ready: () => waitUntil(page, 'window.fieldbookBench !== undefined', 30_000),
    keepSites: (siteids: number[] | null): Promise<string> =>
      page.evaluate((ids) => (globalThis as unknown as Api).fieldbookBench.keepSites(ids), siteids),
    cacheKeys: (collection: CollectionName): Promise<(string | number)[]> =>
      page.evaluate((c) => (globalThis as unknown as Api).fieldbookBench.cacheKeys(c), collection),
    cacheCounts: () => page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.cacheCounts()),
    sampleKeys: (collection: CollectionName, every: number, offset: number): Promise<(string | number)[]> =>
      page.evaluate(([c, e, o]) => (globalThis as unknown as Api).fieldbookBench.sampleKeys(c, e, o), [
        collection,
        every,
        offset,
      ] as const),
    queryLatency: (runs: number, warmup: number): Promise<QueryTimings> =>
      page.evaluate(([r, w]) => (globalThis as unknown as Api).fieldbookBench.queryLatency(r, w), [
        runs,
        warmup,
      ] as const),
    readStretch: (
      collection: CollectionName,
      afterKey: string | number | null,
      count: number,
    ): Promise<RecordStretch> =>
      page.evaluate(([c, k, n]) => (globalThis as unknown as Api).fieldbookBench.readStretch(c, k, n), [
        collection,
        afterKey,
        count,
      ] as const),
    floorOpen: (schema: 'app' | 'keys') =>
      page.evaluate((s) => (globalThis as unknown as Api).fieldbookBench.floorOpen(s), schema),
    floorStage: (json: string) =>
      page.evaluate((j) => (globalThis as unknown as Api).fieldbookBench.floorStage(j), json),
    floorWrite: (collection: CollectionName, pageSizes: number[]): Promise<number> =>
      page.evaluate(([c, p]) => (globalThis as unknown as Api).fieldbookBench.floorWrite(c, p), [
        collection,
        pageSizes,
      ] as const),
    floorClose: () => page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.floorClose()),
    replayOpen: (users: BenchUser[]) =>
      page.evaluate((u) => (globalThis as unknown as Api).fieldbookBench.replayOpen(u), users),
    replayIpcFloor: (changes: BenchChange[], concurrency: number): Promise<number> =>
      page.evaluate(([u, c]) => (globalThis as unknown as Api).fieldbookBench.replayIpcFloor(u, c), [
        changes,
        concurrency,
      ] as const),
    replayRound: (changes: BenchChange[], packed: boolean): Promise<ReplayRound> =>
      page.evaluate(([c, p]) => (globalThis as unknown as Api).fieldbookBench.replayRound(c, p), [
        changes,
        packed,
      ] as const),
    replayWriteFloor: (count: number): Promise<number> =>
      page.evaluate((n) => (globalThis as unknown as Api).fieldbookBench.replayWriteFloor(n), count),
    replayEnqueueLatency: (users: BenchUser[], runs: number): Promise<number[]> =>
      page.evaluate(([u, n]) => (globalThis as unknown as Api).fieldbookBench.replayEnqueueLatency(u, n), [
        users,
        runs,
      ] as const),
    replayTotals: (): Promise<ReplayTotals> =>
      page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.replayTotals()),
    replayClose: () => page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.replayClose()),
    historyOpen: (every: number | null): Promise<HistoryCache> =>
      page.evaluate((n) => (globalThis as unknown as Api).fieldbookBench.historyOpen(n), every),
    historyDay: (index: number, day: string, requirement: boolean): Promise<HistoryDay> =>
      page.evaluate(([i, d, r]) => (globalThis as unknown as Api).fieldbookBench.historyDay(i, d, r), [
        index,
        day,
        requirement,
      ] as const),
    historySize: (): Promise<HistorySize> =>
      page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.historySize()),
    historyClose: () => page.evaluate(() => (globalThis as unknown as Api).fieldbookBench.historyClose()),
  };
}
export type BenchPage = ReturnType<typeof benchPage>;
