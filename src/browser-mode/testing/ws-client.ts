/**
 * A bare client of the browser mode's WebSocket transport, for the IPC fuzz tests:
 * it speaks the bridge's protocol ({ id, channel, arg } -> { id, result }) with
 * whatever Origin header the test chooses.
 */
import WebSocket from 'ws';

export interface BridgeClient {
  call(channel: unknown, arg?: unknown): Promise<unknown>;
  /** sends text as is; resolves with the answer to `id`, or to an unreadable message (id null) */
  raw(text: string, id?: number): Promise<unknown>;
  close(): void;
}

/** `key`: the browser mode's per-launch key (without it the socket refuses any client, whatever its headers). */
export function openBridge(harnessOrigin: string, origin: string, key?: string): Promise<BridgeClient> {
  const query = key === undefined ? '' : `?key=${encodeURIComponent(key)}`;
  const socket = new WebSocket(`${harnessOrigin.replace(/^http/, 'ws')}/__harness/ws${query}`, {
    origin,
    maxPayload: 64 * 1024 * 1024,
  });
  const waiting = new Map<number | null, (result: unknown) => void>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id?: number | null; result?: unknown };
    if (!('id' in message)) return; // an event
    const id = message.id ?? null;
    waiting.get(id)?.(message.result);
    waiting.delete(id);
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`refused: HTTP ${response.statusCode}`)),
    );
    socket.once('open', () =>
      resolve({
        call(channel, arg) {
          const id = nextId++;
          return new Promise((answer) => {
            waiting.set(id, answer);
            socket.send(JSON.stringify({ id, channel, arg }));
          });
        },
        raw(text, id) {
          return new Promise((answer) => {
            waiting.set(null, answer);
            if (id !== undefined) waiting.set(id, answer);
            socket.send(text);
          });
        },
        close: () => socket.close(),
      }),
    );
  });
}
