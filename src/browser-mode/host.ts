/**
 * The browser mode: Fieldbook where Electron cannot run. The BUILT renderer is
 * served to a browser on 127.0.0.1 with the app's CSP (static-server.ts), and
 * `window.fieldbook` is carried over a loopback WebSocket (socket.ts) to the
 * real main-process handlers with real deps: keytar, Node's fetch, a settings
 * folder, the demo. Only the page opened with this launch's key reaches them
 * (launch-key.ts). The command line is cli.ts.
 */
import http from 'node:http';
import path from 'node:path';
import type { MainDeps } from '../main/deps.ts';
import { createHandlers } from '../main/handlers.ts';
import { createBrowserModeDemo, type BrowserModeDemoOptions } from './demo.ts';
import { launchKeyFrom, pageAddress } from './launch-key.ts';
import { DEFAULT_RENDERER_DIR } from './routes.ts';
import { attachPageSocket, type TransportObserver } from './socket.ts';
import { createStaticServe } from './static-server.ts';

export interface BrowserModeOptions extends BrowserModeDemoOptions {
  /** 0 (default) picks a free port; the cache (IndexedDB) belongs to the origin, port included */
  port?: number;
  rendererDir?: string;
  settingsDir: string;
  keychain: MainDeps['keychain'];
  fetch?: typeof globalThis.fetch;
  /** the key of a browser mode this one replaces on the same port under an open page; new and random otherwise */
  launchKey?: string;
  /** handler tuning (tests, benchmarks) */
  tuning?: Pick<MainDeps, 'sync' | 'api' | 'manyPeopleAbove'>;
  observe?: TransportObserver;
}

export interface BrowserMode {
  /** the page address, launch key included: give it only to the browser that shows the app */
  url: string;
  origin: string;
  port: number;
  close(): Promise<void>;
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string')
        reject(new Error('The browser mode has no TCP address.'));
      else resolve(address.port);
    });
  });
}

export async function startBrowserMode(options: BrowserModeOptions): Promise<BrowserMode> {
  const launchKey = launchKeyFrom(options.launchKey);
  const demo = createBrowserModeDemo(options, options.settingsDir);
  const fetch = options.fetch ?? globalThis.fetch;
  const handlers = createHandlers({
    settingsDir: options.settingsDir,
    keychain: options.keychain,
    fetch,
    demo,
    ...options.tuning,
  });
  let host = '';
  const serve = await createStaticServe(
    path.resolve(options.rendererDir ?? DEFAULT_RENDERER_DIR),
    () => host,
  );
  const server = http.createServer(serve);
  const port = await listen(server, options.port ?? 0).catch(async (error: unknown) => {
    // a busy port: nothing of this start stays behind
    await handlers.dispose();
    await demo.close();
    throw error;
  });
  host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;
  const sockets = attachPageSocket(server, { origin, launchKey, handlers, observe: options.observe });
  let closing: Promise<void> | null = null;
  const close = async () => {
    sockets.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await handlers.dispose();
    await demo.close();
  };
  return { url: pageAddress(origin, launchKey), origin, port, close: () => (closing ??= close()) };
}
