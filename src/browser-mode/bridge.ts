/**
 * Browser side of the browser mode: `window.fieldbook` over a loopback WebSocket.
 * The object itself is the preload's (src/preload/api.ts), so the browser mode
 * exercises the very code the Electron app exposes; only the carrier differs.
 *
 * Served as an ES module from the browser mode's own origin (no inline script, so the
 * app's CSP holds unchanged) and run before the app's module script.
 * This file runs in the browser: it uses no Node API (type-only imports).
 */
import type { AppError } from '../shared/ipc.ts';
import { createFieldbookApi, type IpcRendererLike } from '../preload/api.ts';

type Relay = (event: unknown, payload: unknown) => void;
type Incoming = { id: number; result: unknown } | { event: string; payload: unknown };

// (a page left open from an earlier start holds an old launch key: the socket refuses it, which a browser cannot tell
// from a host that is down)
const LOST: AppError = {
  code: 'network',
  message:
    "Lost the connection to Fieldbook's main process. Try again in a moment; if Fieldbook was restarted, open the address it printed (it changes at every start).",
};
const RECONNECT_MS = 500;

function createWebSocketIpc(url: string): IpcRendererLike {
  const pending = new Map<number, (result: unknown) => void>();
  const listeners = new Map<string, Set<Relay>>();
  const outbox: string[] = [];
  let nextId = 1;
  let socket: WebSocket;

  const connect = () => {
    socket = new WebSocket(url);
    socket.addEventListener('open', () => {
      for (const message of outbox.splice(0)) socket.send(message);
    });
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as Incoming;
      if ('id' in message) {
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      } else {
        for (const relay of listeners.get(message.event) ?? []) relay(null, message.payload);
      }
    });
    socket.addEventListener('close', () => {
      // calls in flight have no answer coming: they fail whole, as a lost network would
      for (const resolve of pending.values()) resolve({ ok: false, error: LOST });
      pending.clear();
      setTimeout(connect, RECONNECT_MS);
    });
  };
  connect();

  return {
    invoke(channel, arg) {
      return new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        const message = JSON.stringify({ id, channel, arg });
        if (socket.readyState === WebSocket.OPEN) socket.send(message);
        else outbox.push(message);
      });
    },
    on(channel, listener) {
      listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener));
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
}

/**
 * The launch key comes with the page's own address (never with a served file).
 * It is taken out of the address at once, so it stays in neither the address
 * bar nor the browser's history, and kept in this tab's sessionStorage so that
 * a reload still connects (the key is worthless once this browser mode stops).
 */
interface PageGlobals {
  location: { href: string };
  history: { state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  sessionStorage: { getItem(name: string): string | null; setItem(name: string, value: string): void };
}

function takeLaunchKey(): string {
  const KEY_PARAM = 'key';
  const STORED = 'fieldbook-harness-launch-key';
  const { location, history, sessionStorage } = globalThis as unknown as PageGlobals;
  const address = new URL(location.href);
  const given = address.searchParams.get(KEY_PARAM);
  if (given === null) return sessionStorage.getItem(STORED) ?? '';
  sessionStorage.setItem(STORED, given);
  address.searchParams.delete(KEY_PARAM);
  history.replaceState(history.state, '', `${address.pathname}${address.search}${address.hash}`);
  return given;
}

const wsUrl = new URL('/__harness/ws', import.meta.url);
wsUrl.searchParams.set('key', takeLaunchKey());
wsUrl.protocol = wsUrl.protocol === 'https:' ? 'wss:' : 'ws:';
Object.defineProperty(globalThis, 'fieldbook', {
  value: Object.freeze(createFieldbookApi(createWebSocketIpc(wsUrl.href))),
  writable: false,
  enumerable: true,
  configurable: false,
});
