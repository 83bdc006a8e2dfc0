/**
 * "Try the demo" in the browser mode. By default the app's own demo (createDemo, the
 * reference server in-process with the demo dataset). Tests and benchmarks can
 * point it at a server they run (`serverUrl` + `token`) or pick a dataset.
 */
import path from 'node:path';
import type { MainDeps } from '../main/deps.ts';
import { createDemo } from '../main/demo.ts';
import { startServer } from '../server/index.ts';

export type DatasetName = 'tiny' | 'demo' | 'm' | 'l';

export interface BrowserModeDemoOptions {
  /** an already running Data API (e.g. a reference server a test controls) */
  serverUrl?: string;
  token?: string;
  /** start a reference server with this dataset on "Try the demo" (default: the app's own demo) */
  dataset?: DatasetName;
}

export type BrowserModeDemo = MainDeps['demo'] & { close(): Promise<void> };

export function createBrowserModeDemo(options: BrowserModeDemoOptions, settingsDir: string): BrowserModeDemo {
  const { serverUrl, token, dataset } = options;
  if (serverUrl !== undefined || token !== undefined) {
    if (!serverUrl || !token) throw new Error('--server-url and --token go together.');
    return { start: async () => ({ baseUrl: serverUrl, token }), close: async () => undefined };
  }
  if (dataset && dataset !== 'demo') {
    let server: Awaited<ReturnType<typeof startServer>> | null = null;
    return {
      async start() {
        server ??= await startServer({ port: 0, dataset });
        const full = server.tokens.find((entry) => entry.access === 'full');
        if (!full) throw new Error('The reference server has no full-access token.');
        return { baseUrl: server.baseUrl, token: full.token };
      },
      async close() {
        await server?.close();
      },
    };
  }
  const demo = createDemo(path.join(settingsDir, 'demo'));
  return { start: () => demo.start(), change: (arg) => demo.change(arg), close: () => demo.close() };
}
