/**
 * One benchmark session: the reference server (its CLI, in its own process, as
 * in the server benchmark), the renderer and the benchmark page built fresh into
 * a temp folder, the browser harness serving both from one origin with the real
 * main-process handlers, and Chromium with its own profile folder.
 *
 * The harness gets an in-memory keychain (a benchmark needs no D-Bus session;
 * the token still never reaches the page) and a fetch that notes every request
 * the handlers make, so the transfer floor can replay the sync's own list.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BrowserContext, Page } from '@playwright/test';
import react from '@vitejs/plugin-react';
import { build } from 'vite';
import type { Keychain } from '../src/main/deps.ts';
import { startBrowserMode, type BrowserMode } from '../src/browser-mode/host.ts';
import { launchKeyOf } from '../src/browser-mode/launch-key.ts';
import { launchChromium, OBSERVE_SYNC, waitForFinishedSyncs } from './browser-lib.ts';
import type { BenchContext } from './lib.ts';
import type { RecordedRequest } from './sync-lib.ts';

export interface ReferenceServer {
  baseUrl: string;
  token: string;
  /** the server's process id (for CPU accounting) */
  pid: number | undefined;
  /** POST to the server's loopback-only admin API (`/__admin/faults`, `/__admin/mutate`) */
  admin(route: 'faults' | 'mutate', body: unknown): Promise<void>;
  stop(): void;
}

/**
 * `dbPath`: the server's SQLite file (generated there when absent or of another dataset, kept otherwise); in memory
 * without it.
 */
export async function startServerProcess(
  root: string,
  dataset: string,
  dbPath?: string,
): Promise<ReferenceServer> {
  const args = [
    '--no-warnings',
    'src/server/cli.ts',
    '--port',
    '0',
    '--dataset',
    dataset,
    '--admin',
    ...(dbPath ? ['--db', dbPath] : []),
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  try {
    const first = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the reference server exited with ${code}`)));
      lines.once('line', resolve);
    });
    const info = JSON.parse(first) as { baseUrl: string; tokens: { token: string; access: string }[] };
    const token = info.tokens.find((t) => t.access === 'full')?.token;
    if (!token) throw new Error('the reference server printed no full-access token');
    const origin = new URL(info.baseUrl).origin;
    const admin = async (route: 'faults' | 'mutate', body: unknown): Promise<void> => {
      const res = await fetch(`${origin}/__admin/${route}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok)
        throw new Error(`admin ${route} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      await res.arrayBuffer().catch(() => undefined);
    };
    return { baseUrl: info.baseUrl, token, pid: child.pid, admin, stop: () => void child.kill('SIGTERM') };
  } catch (err) {
    child.kill('SIGTERM');
    throw err;
  }
}

/**
 * Builds the renderer (as electron.vite.config.ts does) and the benchmark page under it, into `outDir`. With
 * FIELDBOOK_BENCH_UNMINIFIED=1 the renderer and the page (which bundles the history's code) keep their functions'
 * names, so that a CPU profile names them (a profile of minified code names `$e` and `tt`).
 */
export async function buildPages(root: string, outDir: string): Promise<void> {
  const named = process.env.FIELDBOOK_BENCH_UNMINIFIED === '1';
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'src/renderer'),
    base: './',
    plugins: [react()],
    worker: { format: 'es' },
    build: { outDir, emptyOutDir: true, ...(named ? { minify: false } : {}) },
  });
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'bench/browser'),
    base: './',
    build: { outDir: path.join(outDir, 'bench'), emptyOutDir: true, ...(named ? { minify: false } : {}) },
  });
}

/** The keychain of a benchmark: kept in this process's memory only. */
export function memoryKeychain(): Keychain {
  const secrets = new Map<string, string>();
  return {
    get: async (account) => secrets.get(account) ?? null,
    set: async (account, secret) => void secrets.set(account, secret),
    delete: async (account) => secrets.delete(account),
    available: async () => ({ available: true }),
  };
}

export interface BenchSession {
  server: ReferenceServer;
  harness: BrowserMode;
  /** every request the handlers made, in order */
  requests: RecordedRequest[];
  /** the benchmark page's URL (same origin as the app, with the launch key) */
  benchUrl: string;
  userDataDir: string;
  context: BrowserContext;
  /** a new tab of the app on `route`, with the sync observer installed */
  openApp(route: string): Promise<Page>;
  /** closes the browser and opens it again on the same profile (a cold start) */
  relaunch(): Promise<BrowserContext>;
  /** a second browser on a new, empty profile (closed with the session) */
  freshContext(): Promise<BrowserContext>;
  /**
   * a second browser on a copy of this profile (its cache, same origin), taken with the browser closed
   * (closed with the session): what it writes leaves the shared profile as it was
   */
  forkedContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** the reference server's SQLite file (a generated dataset reused) */
  dbPath?: string;
  /**
   * A work folder kept after the session (the browser profile, the app's
   * settings, the harness's port: the cache's origin), and reused when it holds
   * one: a later session opens the same cache without syncing it again.
   */
  keepIn?: string;
}

/**
 * The harness's port in a kept work folder (IndexedDB belongs to the origin,
 * port included); 0 (any) for a new folder, which has no port file yet. A file
 * that is not a port stops the session: another port would open an empty cache.
 */
async function keptPort(work: string, keep: boolean): Promise<number> {
  if (!keep) return 0;
  const file = path.join(work, 'harness-port');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  const port = Number(text);
  if (!Number.isInteger(port) || port <= 0 || port > 65_535)
    throw new Error(`${file} holds no port ("${text.slice(0, 20)}"): the kept cache's origin is unknown`);
  return port;
}

export async function startBenchSession(
  ctx: BenchContext,
  dataset: string,
  options: SessionOptions = {},
): Promise<BenchSession> {
  const keep = options.keepIn !== undefined;
  const work = options.keepIn ?? (await mkdtemp(path.join(os.tmpdir(), 'fieldbook-bench-')));
  if (keep) await mkdir(work, { recursive: true });
  const cleanups: (() => Promise<void> | void)[] = keep
    ? []
    : [() => rm(work, { recursive: true, force: true })];
  const close = async () => {
    for (const cleanup of cleanups.splice(0).reverse())
      await Promise.resolve(cleanup()).catch(() => undefined);
  };
  try {
    ctx.log('building the renderer and the benchmark page');
    const rendererDir = path.join(work, 'renderer');
    await buildPages(ctx.root, rendererDir);
    ctx.log(
      `starting the reference server (dataset ${dataset}${options.dbPath ? `, from ${options.dbPath}` : ''})`,
    );
    const server = await startServerProcess(ctx.root, dataset, options.dbPath);
    cleanups.push(() => server.stop());
    const requests: RecordedRequest[] = [];
    const harness = await startBrowserMode({
      port: await keptPort(work, keep),
      rendererDir,
      settingsDir: path.join(work, 'settings'),
      keychain: memoryKeychain(),
      serverUrl: server.baseUrl,
      token: server.token,
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        const recorded: RecordedRequest = {
          method: init?.method ?? (input instanceof Request ? input.method : 'GET'),
          url,
          at: performance.now(),
        };
        requests.push(recorded);
        // the body's size as the server declares it (the reference server always does): what the plan transferred
        return fetch(input, init).then((res) => {
          const length = res.headers.get('content-length');
          if (length !== null) recorded.bytes = Number(length);
          recorded.answeredAt = performance.now();
          return res;
        });
      },
    });
    cleanups.push(() => harness.close());
    if (keep) await writeFile(path.join(work, 'harness-port'), String(harness.port));
    const userDataDir = path.join(work, 'chromium');
    let context = await launchChromium(userDataDir);
    cleanups.push(() => context.close());
    return {
      server,
      harness,
      requests,
      // the launch key goes with the page's address, as for the app: the bridge passes it to the socket
      benchUrl: `${harness.origin}/bench/index.html?key=${launchKeyOf(harness.url)}`,
      userDataDir,
      get context() {
        return context;
      },
      async openApp(route) {
        const app = await context.newPage();
        await app.addInitScript(OBSERVE_SYNC);
        await app.goto(`${harness.url}#/${route}`);
        return app;
      },
      async freshContext() {
        const fresh = await launchChromium(path.join(work, `chromium-fresh-${cleanups.length}`));
        cleanups.push(() => fresh.close());
        return fresh;
      },
      async forkedContext() {
        const copy = path.join(work, `chromium-fork-${cleanups.length}`);
        await context.close();
        await cp(userDataDir, copy, { recursive: true });
        context = await launchChromium(userDataDir);
        const fork = await launchChromium(copy);
        // (cleanups run last first: the browser closes, then its copy goes, even from a kept work folder)
        cleanups.push(() => rm(copy, { recursive: true, force: true }));
        cleanups.push(() => fork.close());
        return fork;
      },
      async relaunch() {
        await context.close();
        context = await launchChromium(userDataDir);
        return context;
      },
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

export interface FullSync {
  ms: number;
  /** `performance.now()` (this process's clock) at the click */
  startedAt: number;
  /**
   * Playwright's own time from the call to click() to the page's click event (its actionability checks), not counted in
   * `ms`
   */
  clickDelayMs: number;
  /** requests of the sync (probes excluded), as the handlers made them */
  requestsFrom: number;
  requestsTo: number;
  statusText: string;
}

/**
 * Page-side stamps (epoch ms) of the next click and of the sync's end as the
 * user sees it on any view (the header's sync indicator gone; on the Sync panel
 * "Sync completed. N records written." shows with it) once more than `before`
 * syncs have finished (OBSERVE_SYNC counts them). A script, as the page runs it.
 */
const stampClickAndDone = (before: number) => `(() => {
  delete window.__clickEpoch;
  delete window.__doneEpoch;
  const now = () => performance.timeOrigin + performance.now();
  document.addEventListener('click', () => { window.__clickEpoch ??= now(); }, { capture: true, once: true });
  const observer = new MutationObserver(() => {
    if ((window.__benchSync?.finished.length ?? 0) <= ${before}) return;
    // the end as the user sees it on any view: the header's sync indicator gone (the Sync panel's outcome line shows at
    // once with it)
    if (document.querySelector('.sync-indicator')) return;
    window.__doneEpoch = now();
    observer.disconnect();
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/**
 * The time from a click to the end of the sync it starts, as the user sees it
 * ("Sync completed. N records written."), both stamped in the page: from the
 * click event, not from Playwright's call (its actionability checks took up to
 * 0.35 s on a Sync panel still settling after its load, time no user waits), to
 * the status appearing, not to Playwright's polling noticing it. Where the page
 * could not stamp (it navigated away), this process's own times stand in.
 */
export async function syncFromClick(
  session: BenchSession,
  app: Page,
  button: string,
  finishedBefore: number,
  timeoutMs: number,
): Promise<FullSync> {
  const status = app.getByRole('status').filter({ hasText: /records? written/ });
  const requestsFrom = session.requests.length;
  await app.evaluate(stampClickAndDone(finishedBefore));
  const called = performance.now();
  await app.getByRole('button', { name: button }).click();
  await waitForFinishedSyncs(app, finishedBefore + 1, timeoutMs);
  await app.locator('.sync-indicator').waitFor({ state: 'detached', timeout: timeoutMs });
  const ended = performance.now();
  const stamps = await app.evaluate<{ click: number | null; done: number | null }>(
    '({ click: window.__clickEpoch ?? null, done: window.__doneEpoch ?? null })',
  );
  // the page's epoch stamps on this process's clock (both read the same system clock)
  const started = stamps.click === null ? called : stamps.click - performance.timeOrigin;
  const done = stamps.done === null ? ended : stamps.done - performance.timeOrigin;
  return {
    ms: done - started,
    startedAt: started,
    clickDelayMs: started - called,
    requestsFrom,
    requestsTo: session.requests.length,
    statusText: (await status.count()) > 0 ? ((await status.first().textContent()) ?? '') : '',
  };
}
