/**
 * The harness's own promises, which the other specs and the benchmarks lean on:
 * the bridge runs before the app, and when the host goes away (killed, restarted
 * by a replay test) calls fail whole with a network error and the page reconnects
 * by itself once the host is back on the same port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startHarness } from './harness/host.ts';
import { expect, test } from './fixtures.ts';

test('window.fieldbook is the contract and nothing else, before the app starts', async ({ app }) => {
  const keys = await app.evaluate<string[]>('Object.keys(window.fieldbook).sort()');
  expect(keys).toContain('profiles:list');
  expect(keys).toContain('on');
  expect(keys).not.toContain('invoke');
  expect(await app.evaluate('Object.isFrozen(window.fieldbook)')).toBe(true);
});

test('a call while the host is down fails as a network error, and the page reconnects when it is back', async ({ page }) => {
  const settingsDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-restart-'));
  let harness = await startHarness({ settingsDir, recordMessages: false });
  try {
    await page.goto(harness.url);
    await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
    const port = harness.port;

    await harness.close();
    const whileDown = await page.evaluate<{ ok: boolean; error?: { code: string } }>(`window.fieldbook['profiles:list']()`);
    expect(whileDown).toMatchObject({ ok: false, error: { code: 'network' } });

    harness = await startHarness({ port, settingsDir, recordMessages: false });
    await expect
      .poll(() => page.evaluate<boolean>(`window.fieldbook['profiles:list']().then((result) => result.ok)`), { timeout: 10_000 })
      .toBe(true);
  } finally {
    await harness.close();
    await rm(settingsDir, { recursive: true, force: true });
  }
});
