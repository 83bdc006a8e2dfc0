/**
 * The browser harness: serves the BUILT renderer (out/renderer) with the app's CSP
 * header, injects a bridge script that implements `window.fieldbook` over a
 * loopback WebSocket, and carries each call to the real main-process handlers
 * (`dispatch(createHandlers(deps), ...)`) with real deps: keytar in the session's
 * Secret Service, Node's fetch, a temp settings folder, and the demo server.
 *
 * The WebSocket opens only for the page that holds this launch's key: a random
 * 256-bit value carried in the page address the harness prints (`/?key=…`) and
 * never served in any file, so another local process (or a web page reaching
 * 127.0.0.1 by DNS rebinding) cannot learn it. Origin and Host are checked too,
 * but they prove nothing on their own: any non-browser client can forge them.
 *
 *   node --experimental-strip-types --no-warnings e2e/harness/host.ts [--port N]
 *        [--server-url URL --token T | --dataset demo|tiny|m|l] [--settings-dir DIR]
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_IPC_MESSAGE_BYTES, type AppError, type EventName, type EventPayloads, type HandlerContext } from '../../src/shared/ipc.ts';
import type { MainDeps } from '../../src/main/deps.ts';
import { createHandlers } from '../../src/main/handlers.ts';
import { dispatch } from '../../src/main/ipc/dispatch.ts';
import { KeytarKeychain } from '../../src/main/secrets/keytar-keychain.ts';
import { contentTypeFor, securityHeaders } from '../../src/main/security/csp.ts';
import { resolveRequestPath } from '../../src/main/security/paths.ts';
import { createHarnessDemo, type HarnessDemoOptions } from './demo.ts';
import { buildBridgeScript, injectBridge } from './page.ts';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DEFAULT_RENDERER_DIR = path.join(projectRoot, 'out/renderer');
export const WS_PATH = '/__harness/ws';
export const BRIDGE_PATH = '/__harness/bridge.js';
export const PRELOAD_API_PATH = '/__harness/preload-api.js';
/** The page-address parameter that carries the launch key (read by bridge.ts). */
export const HARNESS_KEY_PARAM = 'key';

/** Whether `given` is this launch's key (constant time). */
function isLaunchKey(given: string | null, key: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface HarnessOptions extends HarnessDemoOptions {
  /** 0 (default) picks a free port */
  port?: number;
  rendererDir?: string;
  /** kept after close when given; a temp folder (removed on close) otherwise */
  settingsDir?: string;
  /** keychain service name: unique per harness by default so parallel runs never share entries */
  keychainService?: string;
  keychain?: MainDeps['keychain'];
  fetch?: typeof globalThis.fetch;
  /** the launch key of a host this one replaces on the same port (tests that restart the host under an open page); random otherwise */
  launchKey?: string;
  /** keep every message sent to and received from the page (token-leak tests); off for benchmarks */
  recordMessages?: boolean;
  sync?: MainDeps['sync'];
  api?: MainDeps['api'];
  manyPeopleAbove?: MainDeps['manyPeopleAbove'];
}

export interface Harness {
  /** the page address, launch key included: give it only to the browser that shows the app */
  url: string;
  /** this launch's key (in `url`); tests use it to speak to the socket as the page does */
  key: string;
  origin: string;
  port: number;
  settingsDir: string;
  keychainService: string;
  /** every message sent to a page, as sent (when recordMessages) */
  sentToPage: string[];
  /** every message received from a page, as received (when recordMessages) */
  receivedFromPage: string[];
  /** requests the handlers made through fetch (to the API) */
  apiRequests(): number;
  /** WebSocket connections refused for their Origin */
  refusedConnections(): number;
  close(): Promise<void>;
}

const TOO_LARGE: AppError = { code: 'invalid-argument', message: 'The request is too large.' };
const NOT_A_REQUEST: AppError = { code: 'invalid-argument', message: 'The request could not be read.' };
const INTERNAL: AppError = { code: 'internal', message: 'Something went wrong inside Fieldbook. Try again; if it keeps happening, restart it.' };

interface PageRequest {
  id: number;
  channel: unknown;
  arg: unknown;
}

function parseRequest(text: string): PageRequest | null {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null || !('id' in message) || typeof message.id !== 'number') return null;
  return { id: message.id, channel: 'channel' in message ? message.channel : undefined, arg: 'arg' in message ? message.arg : undefined };
}

// Over 80 lines on purpose: one harness's settings, handlers, HTTP server and sockets share this closure.
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const rendererDir = path.resolve(options.rendererDir ?? DEFAULT_RENDERER_DIR);
  const ownSettings = options.settingsDir === undefined;
  const settingsDir = options.settingsDir ?? (await mkdtemp(path.join(os.tmpdir(), 'fieldbook-harness-')));
  const keychainService = options.keychainService ?? `Fieldbook-harness-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const record = options.recordMessages ?? true;
  const sentToPage: string[] = [];
  const receivedFromPage: string[] = [];
  let apiRequests = 0;
  let refused = 0;
  const launchKey = options.launchKey ?? randomBytes(32).toString('base64url');
  if (launchKey.length < 22) throw new Error('The harness launch key must carry at least 128 bits.');

  const baseFetch = options.fetch ?? globalThis.fetch;
  const demo = createHarnessDemo(options, settingsDir);
  const handlers = createHandlers({
    settingsDir,
    keychain: options.keychain ?? new KeytarKeychain(keychainService),
    fetch: (input, init) => {
      apiRequests += 1;
      return baseFetch(input, init);
    },
    demo,
    ...(options.sync ? { sync: options.sync } : {}),
    ...(options.api ? { api: options.api } : {}),
    ...(options.manyPeopleAbove !== undefined ? { manyPeopleAbove: options.manyPeopleAbove } : {}),
  });

  const indexHtml = async () => injectBridge(await readFile(path.join(rendererDir, 'index.html'), 'utf8'), BRIDGE_PATH);
  const scripts = await buildBridgeScript(PRELOAD_API_PATH);

  const server = http.createServer((request, response) => {
    void serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, securityHeaders());
      response.end();
    });
  });

  async function serve(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const headers = securityHeaders();
    // DNS rebinding: a foreign name pointed at 127.0.0.1 gets nothing
    if (request.headers.host !== new URL(origin).host) {
      response.writeHead(421, headers).end('Misdirected Request');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, headers).end();
      return;
    }
    const pathname = new URL(request.url ?? '/', 'http://harness').pathname;
    let body: string | Buffer;
    let type = 'text/javascript; charset=utf-8';
    if (pathname === BRIDGE_PATH) body = scripts.bridge;
    else if (pathname === PRELOAD_API_PATH) body = scripts.preloadApi;
    else {
      const filePath = resolveRequestPath(rendererDir, pathname);
      if (!filePath) {
        response.writeHead(404, headers).end('Not Found');
        return;
      }
      type = contentTypeFor(filePath);
      try {
        body = filePath === path.join(rendererDir, 'index.html') ? await indexHtml() : await readFile(filePath);
      } catch {
        response.writeHead(404, headers).end('Not Found');
        return;
      }
    }
    response.writeHead(200, { ...headers, 'Content-Type': type, 'Cache-Control': 'no-store' });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 8 * MAX_IPC_MESSAGE_BYTES });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The harness has no TCP address.');
  const origin = `http://127.0.0.1:${address.port}`;

  server.on('upgrade', (request, socket, head) => {
    // Node takes its own error listener off an upgraded socket: a reset connection must not end the harness
    socket.on('error', () => socket.destroy());
    const url = new URL(request.url ?? '/', origin);
    const keyed = isLaunchKey(url.searchParams.get(HARNESS_KEY_PARAM), launchKey);
    if (url.pathname !== WS_PATH || !keyed || request.headers.origin !== origin || request.headers.host !== new URL(origin).host) {
      refused += 1;
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws));
  });

  sockets.on('connection', (ws: WebSocket) => {
    const send = (message: unknown) => {
      const text = JSON.stringify(message);
      if (record) sentToPage.push(text);
      if (ws.readyState === ws.OPEN) ws.send(text);
    };
    const ctx: HandlerContext = {
      emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
        send({ event, payload });
      },
    };
    // A frame `ws` refuses has already closed this socket with the reason's code (a message over maxPayload: 1009,
    // text that is not UTF-8: 1007, a broken frame: 1002); unheard, its 'error' event would end the whole harness.
    ws.on('error', (error) => console.warn(`The harness closed one page connection: ${error.message}.`));
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? '' : String(data);
      if (record) receivedFromPage.push(text);
      const request = parseRequest(text);
      if (!request) {
        send({ id: null, result: { ok: false, error: NOT_A_REQUEST } });
        return;
      }
      if (Buffer.byteLength(text) > MAX_IPC_MESSAGE_BYTES) {
        send({ id: request.id, result: { ok: false, error: TOO_LARGE } });
        return;
      }
      void dispatch(handlers, request.channel, request.arg, ctx).then(
        (result) => send({ id: request.id, result }),
        () => send({ id: request.id, result: { ok: false, error: INTERNAL } }),
      );
    });
  });

  let closed = false;
  return {
    url: `${origin}/?${HARNESS_KEY_PARAM}=${launchKey}`,
    key: launchKey,
    origin,
    port: address.port,
    settingsDir,
    keychainService,
    sentToPage,
    receivedFromPage,
    apiRequests: () => apiRequests,
    refusedConnections: () => refused,
    async close() {
      if (closed) return;
      closed = true;
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handlers.dispose();
      await demo.close();
      if (!options.keychain && options.keychainService === undefined) await forgetKeychainService(keychainService);
      if (ownSettings) await rm(settingsDir, { recursive: true, force: true });
    },
  };
}

/** Removes what a harness stored under its own keychain service (best effort: the keychain may be gone). */
async function forgetKeychainService(service: string): Promise<void> {
  try {
    const imported = await import('keytar');
    const keytar = 'default' in imported && imported.default ? imported.default : imported;
    for (const { account } of await keytar.findCredentials(service)) await keytar.deletePassword(service, account);
  } catch {
    // no Secret Service: nothing was stored
  }
}

function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dataset = argValue(args, '--dataset');
  const harness = await startHarness({
    port: Number(argValue(args, '--port') ?? 0),
    settingsDir: argValue(args, '--settings-dir') ?? path.join(os.tmpdir(), 'fieldbook-harness-settings'),
    keychainService: 'Fieldbook',
    recordMessages: false,
    serverUrl: argValue(args, '--server-url'),
    token: argValue(args, '--token'),
    dataset: dataset === 'tiny' || dataset === 'demo' || dataset === 'm' || dataset === 'l' ? dataset : undefined,
  });
  console.log(JSON.stringify({ url: harness.url, settingsDir: harness.settingsDir }));
  console.log(`Fieldbook (browser harness) is running at ${harness.url} — open it in Chromium. Press Ctrl+C to stop.`);
  console.log('The address carries this launch’s key (new at every start): only a page opened with it can use Fieldbook. Do not share it.');
  const stop = () => void harness.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(`The harness could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
