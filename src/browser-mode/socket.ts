/**
 * The browser mode's WebSocket transport: carries the page's calls of the
 * contract (src/shared/ipc.ts) to the main-process handlers and their events
 * back, as ipcMain and the preload do in the app. It opens only for this
 * launch's page: the right path, the launch key, the page's own Origin and Host.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  MAX_IPC_MESSAGE_BYTES,
  type AppError,
  type EventName,
  type EventPayloads,
  type HandlerContext,
} from '../shared/ipc.ts';
import type { createHandlers } from '../main/handlers.ts';
import { dispatch } from '../main/ipc/dispatch.ts';
import { isLaunchKey, LAUNCH_KEY_PARAM } from './launch-key.ts';
import { WS_PATH } from './routes.ts';

type Handlers = ReturnType<typeof createHandlers>;

/** Watchers of the page connections (tests: what crossed, what was refused); none by default. */
export interface TransportObserver {
  /** each message sent to a page, as sent */
  sent?(text: string): void;
  /** each message received from a page, as received */
  received?(text: string): void;
  /** each connection refused (no key, a wrong one, a foreign Origin or Host) */
  refused?(): void;
}

export interface PageSocketOptions {
  origin: string;
  launchKey: string;
  handlers: Handlers;
  observe?: TransportObserver;
}

const TOO_LARGE: AppError = { code: 'invalid-argument', message: 'The request is too large.' };
const NOT_A_REQUEST: AppError = { code: 'invalid-argument', message: 'The request could not be read.' };
const INTERNAL: AppError = {
  code: 'internal',
  message: 'Something went wrong inside Fieldbook. Try again; if it keeps happening, restart it.',
};
const FORBIDDEN = 'HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

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
  if (typeof message !== 'object' || message === null || !('id' in message) || typeof message.id !== 'number')
    return null;
  return {
    id: message.id,
    channel: 'channel' in message ? message.channel : undefined,
    arg: 'arg' in message ? message.arg : undefined,
  };
}

/**
 * Whether an upgrade request comes from this launch's page (the key is what proves it; the headers alone prove
 * nothing).
 */
function fromOwnPage(request: http.IncomingMessage, origin: string, launchKey: string): boolean {
  const url = new URL(request.url ?? '/', origin);
  const keyed = isLaunchKey(url.searchParams.get(LAUNCH_KEY_PARAM), launchKey);
  return (
    url.pathname === WS_PATH &&
    keyed &&
    request.headers.origin === origin &&
    request.headers.host === new URL(origin).host
  );
}

/** One page connection: each request dispatched to the handlers, each answer and event sent back. */
function servePage(ws: WebSocket, handlers: Handlers, observe: TransportObserver): void {
  const send = (message: unknown) => {
    const text = JSON.stringify(message);
    observe.sent?.(text);
    if (ws.readyState === ws.OPEN) ws.send(text);
  };
  const ctx: HandlerContext = {
    emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
      send({ event, payload });
    },
  };
  // A frame `ws` refuses has already closed this socket with the reason's code (a message over maxPayload: 1009,
  // text that is not UTF-8: 1007, a broken frame: 1002); unheard, its 'error' event would end the whole process.
  ws.on('error', (error) => console.warn(`Fieldbook closed one page connection: ${error.message}.`));
  ws.on('message', (data, isBinary) => {
    const text = isBinary ? '' : String(data);
    observe.received?.(text);
    const request = parseRequest(text);
    if (!request) return send({ id: null, result: { ok: false, error: NOT_A_REQUEST } });
    if (Buffer.byteLength(text) > MAX_IPC_MESSAGE_BYTES)
      return send({ id: request.id, result: { ok: false, error: TOO_LARGE } });
    void dispatch(handlers, request.channel, request.arg, ctx).then(
      (result) => send({ id: request.id, result }),
      () => send({ id: request.id, result: { ok: false, error: INTERNAL } }),
    );
  });
}

/** Opens the page socket on `server`'s upgrades; returns how to close every connection. */
export function attachPageSocket(server: http.Server, options: PageSocketOptions): { close(): void } {
  const { origin, launchKey, handlers, observe = {} } = options;
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 8 * MAX_IPC_MESSAGE_BYTES });
  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node takes its own error listener off an upgraded socket: a reset connection must not end the process
    socket.on('error', () => socket.destroy());
    if (!fromOwnPage(request, origin, launchKey)) {
      observe.refused?.();
      socket.end(FORBIDDEN);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => servePage(ws, handlers, observe));
  });
  return {
    close() {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
    },
  };
}
