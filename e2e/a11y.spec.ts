/**
 * axe-core finds nothing on any view, in light and dark, with the panels that
 * open over them (bulk actions with a preview, the import preview, the
 * conflict view); the keyboard gets a skip link and one tab stop per grid.
 */
import type { Page } from '@playwright/test';
import { cspViolations, expect, test, type ReferenceServer } from './fixtures.ts';
import { axeViolations } from './support/axe.ts';
import { parkedOpsScript } from './support/browser-scripts.ts';
import { ALL_TABS, addProfile, goTo, syncNow, usersGrid, type Tab } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'tiny', admin: true } });

async function settled(page: Page): Promise<void> {
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}

async function openBulkPreview(page: Page): Promise<void> {
  await goTo(page, 'Users');
  await page.getByRole('button', { name: /^Select all/ }).click();
  await page.getByLabel('Bulk action').selectOption({ label: 'Group access' });
  await page.getByLabel('Group access', { exact: true }).selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByRole('region', { name: 'Preview' })).toBeVisible();
}

async function openImportPreview(page: Page, server: ReferenceServer): Promise<void> {
  const known = server.query<{ username: string }>(
    "SELECT username FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid LIMIT 1",
  )[0]!;
  await goTo(page, 'Import');
  const csv = [
    'username,first name,last name,status',
    `${known.username},Renamed,Person,Active`,
    'import-new-1,Nia,Okafor,Active',
    'bad-row,=cmd(),X,Active',
  ].join('\n');
  await page
    .getByLabel('choose a file')
    .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByRole('table', { name: 'Rows of the file' })).toBeVisible();
}

async function openConflict(
  page: Page,
  server: ReferenceServer,
): Promise<{ userid: number; username: string }> {
  const user = server.query<{ userid: number; username: string }>(
    "SELECT userid, username FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid DESC LIMIT 1",
  )[0]!;
  expect(server.mutate({ resource: 'user', id: user.userid, changes: { status: 'Offline' } })).toBe(true);
  await goTo(page, 'Users');
  await page.getByLabel('Search users').fill(user.username);
  await page.getByRole('button', { name: /^Select all 1 matching$/ }).click();
  await page.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await page.getByLabel('New status').selectOption('Inactive');
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('button', { name: 'Queue 1 change' }).click();
  await goTo(page, 'Conflicts');
  await expect(page.getByRole('table', { name: 'Values in conflict' })).toBeVisible({ timeout: 30_000 });
  return user;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no violation on any view, nor with the bulk preview, the import preview and a conflict open (${scheme})`, async ({
    app,
    api,
    server,
    fullToken,
  }) => {
    test.setTimeout(180_000);
    await app.emulateMedia({ colorScheme: scheme });
    const found: Record<string, string[]> = {};
    const check = async (where: string) => {
      await settled(app);
      const violations = await axeViolations(app);
      if (violations.length > 0) found[where] = violations;
    };
    await expect(app.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
    await check('Welcome');
    await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
    const base = app.url().split('#')[0];
    for (const tab of ALL_TABS) {
      await goTo(app, tab as Tab);
      await check(tab);
    }
    const [someone] = server.query<{ userid: number }>(
      'SELECT userid FROM users WHERE siteid < 900 ORDER BY userid LIMIT 1',
    );
    await app.goto(`${base}#/users/${someone!.userid}`);
    await expect(app.getByRole('heading', { level: 2, name: 'Credentials' })).toBeVisible();
    await check('User detail');
    const credentialid = server.query<{ credentialid: number }>(
      'SELECT credentialid FROM credential_assignments ORDER BY credentialid LIMIT 1',
    )[0]!.credentialid;
    await app.goto(`${base}#/credentials/${credentialid}`);
    await expect(app.getByRole('grid', { name: /^Holders of/ })).toBeVisible();
    await check('Credential holders');
    await openBulkPreview(app);
    await check('Bulk preview');
    await openImportPreview(app, server);
    await check('Import preview');
    await openConflict(app, server);
    await check('Conflict view');
    await goTo(app, 'Outbox');
    const show = app.getByRole('button', { name: /^Show \d+ changes? of/ }).first();
    await show.click();
    await app
      .getByRole('button', { name: /^Inspect/ })
      .first()
      .click();
    await check('Outbox, an operation inspected');
    const batchId = (
      await app
        .getByRole('button', { name: /^Hide changes of/ })
        .first()
        .getAttribute('aria-controls')
    )?.replace(/^batch-/, '');
    await app.goto(`${base}#/undo/${batchId}`);
    await expect(app.getByRole('heading', { name: 'Undo a batch' })).toBeVisible();
    await check('Undo view');
    expect(found).toEqual({});
    expect(await cspViolations(app)).toEqual([]);
  });
}

/**
 * Words of buttons, headers, links and labels split over two lines (a "Cre-/dentials"): "text of the element" per case.
 */
const MID_WORD_WRAPS = `(() => {
  const found = [];
  for (const el of document.querySelectorAll('button, summary, label, h1, h2, h3, th, [role=columnheader], .app-nav a')) {
    if (el.closest('.visually-hidden') || el.getClientRects().length === 0) continue;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('.visually-hidden')) continue;
      const re = /\\S+/g;
      for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) found.push(el.tagName + ': ' + m[0]);
      }
    }
  }
  return found;
})()`;

/** Column headers cut short ("Memb…") and tabs of the navigation out of the window: "text" per case. */
const CLIPPED = `(() => {
  const found = [];
  for (const el of document.querySelectorAll('.vgrid-head > div, [role=columnheader], th')) {
    if (el.getClientRects().length > 0 && el.scrollWidth > el.clientWidth + 1) found.push('header: ' + el.textContent.trim());
  }
  for (const el of document.querySelectorAll('.app-nav a')) {
    const outside = el.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
    if (outside) found.push('tab: ' + el.textContent.trim());
  }
  return found;
})()`;

test.describe('keyboard and layout', () => {
  test.beforeEach(async ({ app, api, fullToken }) => {
    await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
    await syncNow(app);
  });

  test('the first Tab reaches a skip link that moves the focus to the view', async ({ app }) => {
    await goTo(app, 'Access');
    await app.reload();
    await expect(app.getByRole('heading', { level: 1, name: 'Access' })).toBeVisible();
    await app.keyboard.press('Tab');
    const skip = app.getByRole('button', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await app.keyboard.press('Enter');
    await expect(app.getByRole('main')).toBeFocused();
  });

  test('a grid is one tab stop: Tab from it leaves it', async ({ app }) => {
    await goTo(app, 'Access');
    const groups = app.getByRole('grid', { name: 'Groups and their supervisors' });
    await groups.focus();
    await app.keyboard.press('Tab');
    expect(
      await app.evaluate<boolean>(
        "document.activeElement !== null && document.activeElement.closest('[role=grid]') === null",
      ),
    ).toBe(true);
    await expect(app.getByRole('button', { name: 'Export feature access as CSV' })).toBeFocused();
  });

  test("a row's pending change is no tab stop of its own: Delete on the row undoes it", async ({
    app,
    server,
  }) => {
    const user = await openConflict(app, server);
    await goTo(app, 'Users');
    await app.getByLabel('Search users').fill(user.username);
    const grid = usersGrid(app);
    await expect(grid.getByRole('button', { name: /^Undo pending change/ })).toHaveCount(1);
    // Tab from the grid reaches its column headers' sort buttons, then leaves: never a control inside its rows
    await grid.focus();
    for (let i = 0; i < 8; i += 1) {
      await app.keyboard.press('Tab');
      expect(await app.evaluate<boolean>("document.activeElement?.closest('.vgrid-body') === null")).toBe(
        true,
      );
    }
    await grid.focus();
    await app.keyboard.press('Delete');
    await expect(grid.getByRole('button', { name: /^Undo pending change/ })).toHaveCount(0);
    await goTo(app, 'Outbox');
    await expect(app.getByText('Nothing here.')).toBeVisible(); // the change is discarded
  });

  test('the user detail’s repeated Edit controls each say what they edit', async ({ app, server }) => {
    const userid = server.query<{ userid: number }>(
      'SELECT userid FROM credential_assignments GROUP BY userid HAVING COUNT(*) > 1 ORDER BY userid LIMIT 1',
    )[0]!.userid;
    await app.goto(`${app.url().split('#')[0]}#/users/${userid}`);
    await expect(app.getByRole('heading', { level: 2, name: 'Credentials' })).toBeVisible();
    const names = await app.locator('summary').evaluateAll((list) => list.map((s) => s.textContent ?? ''));
    expect(names.filter((n) => n.startsWith('Edit')).length).toBeGreaterThan(2);
    expect(new Set(names).size).toBe(names.length);
  });

  test('at 1024×640 no button, header, link or label breaks inside a word, and no header or tab is cut', async ({
    app,
    server,
  }) => {
    await app.setViewportSize({ width: 1024, height: 640 });
    const found: Record<string, string[]> = {};
    for (const tab of ALL_TABS) {
      await goTo(app, tab);
      await settled(app);
      const wraps = [
        ...(await app.evaluate<string[]>(MID_WORD_WRAPS)),
        ...(await app.evaluate<string[]>(CLIPPED)),
      ];
      if (wraps.length > 0) found[tab] = wraps;
    }
    await goTo(app, 'Users');
    await app.getByRole('button', { name: /^Select all/ }).click();
    await app.getByLabel('Bulk action').selectOption({ label: 'Assign a credential' });
    const bulk = await app.evaluate<string[]>(MID_WORD_WRAPS);
    if (bulk.length > 0) found['Bulk panel'] = bulk;
    // the widest tables: a full outbox and an import preview
    expect(await app.evaluate(parkedOpsScript(30))).toBe(30);
    await app.reload();
    await goTo(app, 'Outbox');
    await settled(app);
    const outbox = await app.evaluate<string[]>(MID_WORD_WRAPS);
    if (outbox.length > 0) found['Outbox with operations'] = outbox;
    await openImportPreview(app, server);
    const importing = await app.evaluate<string[]>(MID_WORD_WRAPS);
    if (importing.length > 0) found['Import preview'] = importing;
    expect(found).toEqual({});
  });
});
