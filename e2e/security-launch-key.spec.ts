/**
 * Where the browser mode's launch key stays once a browser has opened the
 * printed address, read from the browser's own files (a profile folder of its
 * own, closed first so that Chromium has written everything), not from what the
 * page shows. The page takes the key out of its address at once, but Chromium
 * records the address it opened before any script of the page runs: the key
 * stays wherever Chromium keeps visited addresses, and in the tab's session
 * storage (so that a reload connects). SECURITY.md names exactly these places;
 * anywhere else (local storage, IndexedDB, cookies, the cache) is a leak.
 */
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { expect, test } from './fixtures.ts';

/** Where Chromium keeps visited addresses or a tab's session storage (SECURITY.md, "the launch key"). */
const PLACES_OF_VISITED_ADDRESSES = [
  'Default/History',
  'Default/Top Sites',
  'Default/Sessions/',
  'Default/Session Storage/',
  'segmentation_platform/',
];

/** The addresses Chromium's history database keeps (table `urls`), read after the browser closed. */
function historyAddresses(profileDir: string): string[] {
  const history = new DatabaseSync(path.join(profileDir, 'Default', 'History'), { readOnly: true });
  try {
    return history
      .prepare('SELECT url FROM urls')
      .all()
      .map((row) => String(row.url));
  } finally {
    history.close();
  }
}

/** Every file of the profile holding `text` (as bytes of ASCII or of UTF-16, as DOM storage keeps strings). */
async function filesHolding(profileDir: string, text: string): Promise<string[]> {
  const entries = await readdir(profileDir, { recursive: true, withFileTypes: true });
  const forms = [Buffer.from(text, 'latin1'), Buffer.from(text, 'utf16le')];
  const holding: string[] = [];
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const file = path.join(entry.parentPath, entry.name);
    const bytes = await readFile(file).catch(() => Buffer.alloc(0));
    if (forms.some((form) => bytes.includes(form))) holding.push(path.relative(profileDir, file));
  }
  return holding;
}

test('the launch key stays only where the browser keeps visited addresses, and only as the printed address', async ({
  harness,
}) => {
  const profileDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-launch-key-profile-'));
  try {
    const browser = await chromium.launchPersistentContext(profileDir, {
      executablePath: '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
      headless: true,
    });
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto(harness.url);
    await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
    expect(page.url()).not.toContain(harness.key);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
    await browser.close();

    const addresses = historyAddresses(profileDir);
    expect(addresses).toContain(`${harness.origin}/`);
    expect(addresses.filter((address) => address.includes(harness.key))).toEqual([harness.url]);
    const elsewhere = (await filesHolding(profileDir, harness.key)).filter(
      (file) => !PLACES_OF_VISITED_ADDRESSES.some((place) => file.startsWith(place)),
    );
    expect(elsewhere).toEqual([]);
  } finally {
    await rm(profileDir, { recursive: true, force: true });
  }
});
