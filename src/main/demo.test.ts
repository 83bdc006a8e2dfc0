/**
 * "Try the demo" runs the reference server inside the app. Every process on
 * the machine can reach its loopback port, and web pages can reach it by DNS
 * rebinding: its tokens are random per start, it answers only under its own
 * host name, it listens on loopback only, and it has no admin API.
 */
import http from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deriveTokens } from '../server/tokens.ts';
import { createDemo } from './demo.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function demo() {
  const dir = await mkdtemp(join(tmpdir(), 'fieldbook-demo-'));
  const d = createDemo(dir);
  cleanups.push(async () => {
    await d.close();
    await rm(dir, { recursive: true, force: true });
  });
  return d.start();
}

function get(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('the demo', () => {
  it('starts the reference server on a loopback port with a full-access token, once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fieldbook-demo-'));
    const d = createDemo(join(dir, 'demo'));
    cleanups.push(async () => {
      await d.stop();
      await rm(dir, { recursive: true, force: true });
    });
    const first = await d.start();
    const again = await d.start();
    expect(again).toEqual(first);
    expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const res = await fetch(`${first.baseUrl}/sites`, { headers: { AccessToken: first.token } });
    expect(res.status).toBe(200);
    expect(await readdir(join(dir, 'demo'))).toContain('demo.sqlite');
  });
});

describe('the demo server', () => {
  it('hands out a random token at every start, not one derived from a public string', async () => {
    const first = await demo();
    const second = await demo();
    expect(first.token).not.toBe(second.token);
    const derived = deriveTokens('demo', 1).map((t) => t.token);
    expect(derived).not.toContain(first.token);
    expect(first.token.length).toBeGreaterThanOrEqual(43);
  });

  it('listens on loopback only', async () => {
    const { baseUrl } = await demo();
    expect(new URL(baseUrl).hostname).toBe('127.0.0.1');
  });

  it('refuses a request under another host name (DNS rebinding), even with the right token', async () => {
    const { baseUrl, token } = await demo();
    const port = new URL(baseUrl).port;
    const rebound = await get(`${baseUrl}/sites`, { Host: `rebound.example:${port}`, AccessToken: token });
    expect(rebound.status).toBe(421);
    expect(rebound.body).not.toContain('sitename');
    const own = await get(`${baseUrl}/sites`, { AccessToken: token });
    expect(own.status).toBe(200);
  });

  it('has no admin API', async () => {
    const { baseUrl } = await demo();
    const origin = new URL(baseUrl).origin;
    for (const path of ['/__admin/snapshot', '/__admin/faults']) {
      const answer = await get(`${origin}${path}`, {});
      expect(answer.status, path).not.toBe(200);
      expect(answer.body, path).not.toContain('"users"');
    }
  });
});
