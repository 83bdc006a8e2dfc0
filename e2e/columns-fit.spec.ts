/**
 * Names cut short in the lists a coordinator reads at 1280×800 on the demo data: the
 * credential of each holder in All credentials, and the report's finding and group of
 * each person to act on. Expected texts are read from the view, never typed in.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, syncNow } from './support/ui.ts';
import { clippedCells } from './support/grid.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await app.setViewportSize({ width: 1280, height: 800 });
});

const shots = process.env.FIELDBOOK_SHOTS;

test('All credentials gives the credential’s name (with its category and site) the room the holder’s name does not need, at 1280×800', async ({
  app,
}) => {
  await app.goto(`${app.url().split('#')[0]}#/credentials`);
  const grid = 'Holders of All credentials';
  await expect(app.getByRole('grid', { name: grid }).getByRole('row').nth(1)).toContainText(/ · /);
  if (shots) await app.screenshot({ path: `${shots}/credentials-1280.png` });
  // what the holder's name does not need goes to the credential's name (before: the holder's column was the wider)
  const widths = await app
    .getByRole('grid', { name: grid })
    .getByRole('columnheader')
    .evaluateAll((heads) =>
      Object.fromEntries(
        heads.map((h) => [
          (h as unknown as { textContent: string }).textContent.trim(),
          (h as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width,
        ]),
      ),
    );
  expect(widths['Credential']).toBeGreaterThan(1.8 * widths['Holder']!);
  // the names short enough for the row at 1280 (all but the longest: category and site in full) are whole
  const clipped = await clippedCells(app, grid, 'Credential');
  const whole =
    (await app.getByRole('grid', { name: grid }).getByRole('row').allTextContents()).length -
    1 -
    clipped.length;
  expect(whole).toBeGreaterThan(clipped.length);
  // and those cut short show their whole text on hover
  expect(clipped.length).toBeGreaterThan(0);
  expect(await clippedCells(app, grid, 'Credential', true)).toEqual([]);
});

test('the report’s people to act on show their finding and their group whole at 1280×800', async ({
  app,
}) => {
  await app.goto(`${app.url().split('#')[0]}#/report`);
  const act = app.getByRole('region', { name: 'Act on the findings' });
  const finding = act.getByLabel('Finding');
  await expect(finding.locator('option').first()).toBeAttached();
  const types = await finding.locator('option').allTextContents();
  expect(types.length).toBeGreaterThan(0);
  for (const type of types) {
    await finding.selectOption({ label: type });
    await expect(act.getByRole('grid').getByRole('row').nth(1)).toBeVisible();
    const grid = act.getByRole('grid');
    const name = (await grid.getAttribute('aria-label'))!;
    if (shots) await app.screenshot({ path: `${shots}/report-${type.replace(/\W+/g, '-')}-1280.png` });
    await expect.poll(() => clippedCells(app, name, 'Group'), type).toEqual([]);
    // one finding is whole; several are a list that may run on
    await expect
      .poll(async () => (await clippedCells(app, name, 'Finding')).filter((text) => !/\), /.test(text)), type)
      .toEqual([]);
    // a list that runs on shows whole on hover
    expect(await clippedCells(app, name, 'Finding', true), type).toEqual([]);
  }
});
