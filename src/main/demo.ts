/**
 * "Try the demo": the reference server started in this process on a free
 * loopback port with the demo dataset, its data kept in `dbDir` so the demo
 * site keeps the user's edits between launches. Started once, on first use,
 * with random tokens; it answers only under its loopback address (Host checked).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MainDeps } from './deps.ts';
import { startServer } from '../server/index.ts';
import { applyDemoScenario } from './demo-scenarios.ts';

type RunningServer = Awaited<ReturnType<typeof startServer>>;

export function createDemo(
  dbDir: string,
): Required<MainDeps['demo']> & { stop(): Promise<void>; close(): Promise<void> } {
  let server: Promise<RunningServer> | null = null;

  async function boot(): Promise<RunningServer> {
    await mkdir(dbDir, { recursive: true });
    // loopback only, a random token per start (nothing outside this process knows it), no admin API
    return startServer({
      dataset: 'demo',
      dbPath: join(dbDir, 'demo.sqlite'),
      port: 0,
      host: '127.0.0.1',
      tokens: 'random',
      admin: false,
    });
  }

  async function stop(): Promise<void> {
    const running = server;
    server = null;
    if (running) await (await running).close();
  }

  return {
    async start() {
      server ??= boot().catch((err: unknown) => {
        server = null;
        throw err;
      });
      const running = await server;
      const full = running.tokens.find((t) => t.access === 'full');
      if (!full) throw new Error('The demo server offers no full-access token.');
      return { baseUrl: running.baseUrl, token: full.token };
    },
    // in process, not through /__admin (the demo server has no admin API): only this process can change it
    async change(arg) {
      const running = server ? await server : null;
      if (!running) throw new Error('The demo server is not running.');
      return applyDemoScenario(running, arg);
    },
    stop,
    close: stop,
  };
}
