/**
 * The site the coordinator looks after, on the demo's two sites: the dashboard
 * counts that site only, each number opens a list of exactly that many, and the
 * pickers say which site each same-named group is of ("Driver" twice).
 */
import { expect, test } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { addProfile, goTo, syncNow, usersGrid } from './support/ui.ts';
import { listedCount } from './support/count-line.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(180_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

interface Site {
  siteid: number;
  sitename: string;
}

const needsAttention = (app: Page) => app.getByRole('list', { name: 'Needs attention' });
const siteChoice = (app: Page) =>
  app.getByRole('region', { name: 'Dashboard' }).getByRole('combobox', { name: 'Site' });

async function figureValue(link: Locator): Promise<number> {
  return Number(((await link.locator('.figure-value').textContent()) ?? '').replace(/,/g, ''));
}

/** The dashboard opened afresh (its figures read for the remembered site, never a stale one). */
async function openDashboard(app: Page, site: Site | null): Promise<void> {
  await goTo(app, 'Users');
  await goTo(app, 'Dashboard');
  await expect(siteChoice(app)).toHaveValue(site ? String(site.siteid) : '');
  await expect(needsAttention(app)).toBeVisible();
  await expect(app.getByText(/^Loading/)).toHaveCount(0);
}

/** The "Needs attention" numbers with that site chosen (null: every site). */
async function headlineOf(app: Page, site: Site | null): Promise<number[]> {
  await goTo(app, 'Dashboard');
  await siteChoice(app).selectOption(site ? { label: site.sitename } : { label: 'All sites' });
  await openDashboard(app, site);
  return Promise.all((await needsAttention(app).getByRole('link').all()).map(figureValue));
}

/** Each number of the dashboard, with how to open its list and how that list says it is of the site. */
async function checksOf(
  app: Page,
  site: Site,
): Promise<{ name: string; open: () => Promise<number>; scoped: () => Promise<void> }[]> {
  const onlySite = async () => {
    const users = app.getByRole('combobox', { name: 'Site' });
    if (await app.getByRole('heading', { name: 'Users', level: 1 }).isVisible())
      await expect(users).toHaveValue(String(site.siteid));
    else
      await expect(
        app
          .getByRole('heading', { level: 2 })
          .filter({ hasText: `of ${site.sitename}` })
          .first(),
      ).toBeVisible();
  };
  const linkIn = (list: string, i: number) => app.getByRole('list', { name: list }).getByRole('link').nth(i);
  const opener = (list: string, i: number) => async () => {
    const l = linkIn(list, i);
    const v = await figureValue(l);
    await l.click();
    return v;
  };
  const checks = [];
  for (const list of ['Needs attention', 'Users by status: key']) {
    const links = await app.getByRole('list', { name: list }).getByRole('link').all();
    for (let i = 0; i < links.length; i++)
      checks.push({ name: (await links[i]!.textContent())!, open: opener(list, i), scoped: onlySite });
  }
  return checks;
}

test('the dashboard for one site counts that site only, each of its numbers opens a list of exactly that many, and the site is remembered', async ({
  app,
  server,
}, testInfo) => {
  const sites = server.query<Site>('SELECT siteid, sitename FROM sites WHERE siteid < 900 ORDER BY sitename');
  expect(sites.map((s) => s.sitename)).toEqual(['Northgate Distribution Center', 'Riverside Plant']);
  const [northgate, riverside] = sites as [Site, Site];
  // the sites share every figure between them: each is counted at one site only
  const all = await headlineOf(app, null);
  const [north, river] = [await headlineOf(app, northgate), await headlineOf(app, riverside)];
  expect(north.map((n, i) => n + river[i]!)).toEqual(all);
  expect(north).not.toEqual(all);

  await headlineOf(app, northgate);
  await app.setViewportSize({ width: 1280, height: 800 });
  await app.screenshot({ path: testInfo.outputPath('dashboard-northgate-1280x800.png'), fullPage: true });
  const checks = await checksOf(app, northgate);
  expect(checks.length).toBeGreaterThanOrEqual(5);
  for (const check of checks) {
    await openDashboard(app, northgate);
    const figure = await check.open();
    expect(await listedCount(app), check.name).toBe(figure);
    await check.scoped();
  }
  await app.screenshot({ path: testInfo.outputPath('list-opened-northgate-1280x800.png') });
});

test('the group pickers name each group’s site: the two “Driver” groups can be told apart', async ({
  app,
  server,
}) => {
  const sites = server
    .query<{ sitename: string }>('SELECT sitename FROM sites WHERE siteid < 900 ORDER BY sitename')
    .map((s) => s.sitename);
  await goTo(app, 'Users');
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
  const drivers = (picker: Locator) =>
    picker
      .locator('option')
      .filter({ hasText: /^Driver\b/ })
      .allTextContents();
  // the groups arrive after the first rows: wait for them rather than read the picker once
  await expect
    .poll(() => drivers(app.getByLabel('Profile group')))
    .toEqual(sites.map((s) => `Driver (${s})`));
  await app.getByRole('button', { name: /^Select all/ }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Group access' });
  const picker = app.getByLabel('Group access', { exact: true });
  expect(await drivers(picker)).toEqual(sites.map((s) => `Driver (${s})`));
  // the one picked reads whole in the closed picker
  await picker.selectOption({ label: `Driver (${sites[1]})` });
  await expect(picker.locator('option:checked')).toHaveText(`Driver (${sites[1]})`);
});

test('one site chosen is the site of every view, and the group pickers then list that site’s groups only', async ({
  app,
  server,
}) => {
  const [northgate, riverside] = server.query<Site>(
    'SELECT siteid, sitename FROM sites WHERE siteid < 900 ORDER BY sitename',
  ) as [Site, Site];
  await goTo(app, 'Dashboard');
  await siteChoice(app).selectOption({ label: northgate.sitename });
  const site = app.getByRole('combobox', { name: 'Site', exact: true });
  for (const tab of ['Users', 'Report', 'Since last sync', 'Requirements'] as const) {
    await goTo(app, tab);
    await expect(site, tab).toHaveValue(String(northgate.siteid));
  }

  await goTo(app, 'Users');
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
  const groupsOf = async (picker: Locator) =>
    (await picker.locator('option').allTextContents()).filter(
      (t) => !['All groups', 'Choose…', ''].includes(t),
    );
  const profileGroups = await groupsOf(app.getByLabel('Profile group'));
  expect(profileGroups).toContain(`Driver (${northgate.sitename})`);
  expect(profileGroups.filter((g) => !g.endsWith(`(${northgate.sitename})`))).toEqual([]);
  await app.getByRole('button', { name: /^Select all/ }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Group access' });
  const access = await groupsOf(app.getByLabel('Group access', { exact: true }));
  expect(access).toContain(`Driver (${northgate.sitename})`);
  expect(access.filter((g) => !g.endsWith(`(${northgate.sitename})`))).toEqual([]);

  // chosen in another view, it is the dashboard's too
  await site.selectOption({ label: riverside.sitename });
  await openDashboard(app, riverside);
});
