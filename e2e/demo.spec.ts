/** "Try the demo": one click, and the app has a site to browse. */
import { expect, test } from './fixtures.ts';

// the app's own demo (createDemo: the reference server in-process, demo dataset), not the test's server
test.use({ harnessOptions: { serverUrl: undefined, token: undefined } });
import { goTo, tryTheDemo, usersCount, usersGrid } from './support/ui.ts';

test('trying the demo syncs a sample site and lists its people', async ({ app }) => {
  await tryTheDemo(app);
  await goTo(app, 'Users');
  await expect(usersCount(app)).toHaveText(/^\d+ of \d+ users$/);
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
});
