/**
 * The browser mode as `npm start` runs it (its own process): a page connection that
 * sends a message over the socket's limit, or a frame that is not valid, is
 * closed with the reason's code; the process lives on and every other page
 * connection keeps working.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openBridge } from './testing/ws-client.ts';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cli.ts');

let host: ChildProcess;
let settingsDir: string;
let origin: string;
let key: string;
let stderr = '';

beforeAll(async () => {
  settingsDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-host-process-'));
  const args = [
    '--experimental-strip-types',
    '--no-warnings',
    CLI,
    '--port',
    '0',
    '--settings-dir',
    settingsDir,
    '--server-url',
    'http://127.0.0.1:1/api/v1',
    '--token',
    'unused-demo-token',
  ];
  host = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  host.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  let out = '';
  host.stdout!.setEncoding('utf8');
  while (!out.includes('\n')) out += String((await once(host.stdout!, 'data'))[0]);
  const url = new URL((JSON.parse(out.split('\n')[0]!) as { url: string }).url);
  origin = url.origin;
  key = url.searchParams.get('key') ?? '';
});

afterAll(async () => {
  host.kill('SIGTERM');
  if (host.exitCode === null) await once(host, 'exit');
  await rm(settingsDir, { recursive: true, force: true });
});

/** A page connection (the launch key, the page's Origin) that sends raw frames and reports how it was closed. */
async function rawPage(): Promise<{ socket: WebSocket; closed: Promise<number> }> {
  const socket = new WebSocket(
    `${origin.replace(/^http/, 'ws')}/__harness/ws?key=${encodeURIComponent(key)}`,
    { origin },
  );
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await once(socket, 'open');
  return { socket, closed };
}

const alive = () => host.exitCode === null && host.signalCode === null;

describe('the browser mode process, sent what it must not read', () => {
  it('closes a connection that sends a 9 MB message (code 1009, message too big); the process and the other connections live on', async () => {
    const other = await openBridge(origin, origin, key);
    const page = await rawPage();
    page.socket.send('x'.repeat(9 * 1024 * 1024));
    expect(await page.closed).toBe(1009);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(alive(), stderr).toBe(true);
    expect(await other.call('profiles:list')).toMatchObject({ ok: true });
    const fresh = await openBridge(origin, origin, key);
    expect(await fresh.call('profiles:list')).toMatchObject({ ok: true });
    other.close();
    fresh.close();
  });

  it('closes a connection that sends text that is not UTF-8 (code 1007), and lives on', async () => {
    const page = await rawPage();
    // a text frame of invalid UTF-8, written below the library that would refuse to send it
    const socket = (page.socket as unknown as { _socket: import('node:net').Socket })._socket;
    socket.write(Buffer.from([0x81, 0x82, 0, 0, 0, 0, 0xc3, 0x28]));
    expect(await page.closed).toBe(1007);
    const other = await openBridge(origin, origin, key);
    expect(await other.call('profiles:list')).toMatchObject({ ok: true });
    other.close();
    expect(alive(), stderr).toBe(true);
  });

  it('still answers an unreadable request with an error, without closing the connection', async () => {
    const client = await openBridge(origin, origin, key);
    expect(await client.raw('not json')).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
    expect(await client.call('profiles:list')).toMatchObject({ ok: true });
    client.close();
  });

  it('lives on when local clients reset their connection as it refuses their upgrade (no launch key)', async () => {
    const { port } = new URL(origin);
    const request = `GET /__harness/ws?key=wrong HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    for (let i = 0; i < 100; i++) {
      await new Promise<void>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(request);
          setImmediate(() => {
            socket.resetAndDestroy();
            resolve();
          });
        });
        socket.on('error', () => resolve());
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(alive(), stderr).toBe(true);
    const client = await openBridge(origin, origin, key);
    expect(await client.call('profiles:list')).toMatchObject({ ok: true });
    client.close();
  });
});
