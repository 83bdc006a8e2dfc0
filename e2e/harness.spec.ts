/**
 * The harness's own promises, which the other specs and the benchmarks lean on:
 * the bridge runs before the app, and when the host goes away (killed, restarted
 * by a replay test) calls fail whole with a network error and the page reconnects
 * by itself once the host is back on the same port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startHarness, type Harness } from './support/harness.ts';
import { injectBridge } from '../src/browser-mode/page.ts';
import { expect, test } from './fixtures.ts';

test('window.fieldbook is the contract and nothing else, before the app starts', async ({ app }) => {
  const keys = await app.evaluate<string[]>('Object.keys(window.fieldbook).sort()');
  expect(keys).toContain('profiles:list');
  expect(keys).toContain('on');
  expect(keys).not.toContain('invoke');
  expect(await app.evaluate('Object.isFrozen(window.fieldbook)')).toBe(true);
});

/**
 * A port below Linux's ephemeral range (32768+): while this harness is down, no
 * other worker's port-0 server can take its port and receive the page's reconnection.
 */
async function startOutsideEphemeralPorts(settingsDir: string): Promise<Harness> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await startHarness({
        port: 20_000 + Math.floor(Math.random() * 10_000),
        settingsDir,
        recordMessages: false,
      });
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

test('a call while the host is down fails as a network error, and the page reconnects when it is back', async ({
  page,
}) => {
  const settingsDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-restart-'));
  let harness = await startOutsideEphemeralPorts(settingsDir);
  try {
    await page.goto(harness.url);
    await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
    const port = harness.port;

    await harness.close();
    const whileDown = await page.evaluate<{ ok: boolean; error?: { code: string } }>(
      `window.fieldbook['profiles:list']()`,
    );
    expect(whileDown).toMatchObject({ ok: false, error: { code: 'network' } });

    // the page keeps the address (and the launch key) it was opened with: the restarted host takes the same key
    harness = await startHarness({ port, settingsDir, recordMessages: false, launchKey: harness.key });
    await expect
      .poll(() => page.evaluate<boolean>(`window.fieldbook['profiles:list']().then((result) => result.ok)`), {
        timeout: 10_000,
      })
      .toBe(true);
  } finally {
    await harness.close();
    await rm(settingsDir, { recursive: true, force: true });
  }
});

test('the launch key leaves the address bar once the page has it, and a reload still reaches the host', async ({
  harness,
  page,
}) => {
  await page.goto(harness.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
  expect(page.url()).not.toContain(harness.key);
  expect(new URL(page.url()).searchParams.has('key')).toBe(false);
  expect(await page.evaluate<string>('location.href')).not.toContain(harness.key);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
  expect(page.url()).not.toContain(harness.key);
  expect(
    await page.evaluate<boolean>(`window.fieldbook['profiles:list']().then((result) => result.ok)`),
  ).toBe(true);
});

test('a page asked for under another host name is refused (DNS rebinding)', async ({ harness }) => {
  const status = await new Promise<number | undefined>((resolve, reject) => {
    const request = http.get(
      {
        host: '127.0.0.1',
        port: harness.port,
        path: '/',
        headers: { Host: `rebound.example:${harness.port}` },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode);
      },
    );
    request.on('error', reject);
  });
  expect(status).toBe(421);
});

test('the bridge script is placed before the app module script, never inline', () => {
  const html =
    '<html><head><title>x</title><script type="module" crossorigin src="./assets/index.js"></script></head><body></body></html>';
  const injected = injectBridge(html, '/__harness/bridge.js');
  expect(injected.indexOf('/__harness/bridge.js')).toBeLessThan(injected.indexOf('./assets/index.js'));
  expect(injected).toMatch(/<script type="module" src="\/__harness\/bridge.js"><\/script>/);
  expect(injectBridge('<html><head></head></html>', '/b.js')).toBe(
    '<html><head><script type="module" src="/b.js"></script></head></html>',
  );
});
