/**
 * An API that takes requests and never answers. The attempt timeout is shortened
 * for the test (the app's is 10 s, four attempts: about 45 s); what the user sees is
 * the same: "retrying (2 of 4)" while Fieldbook waits, then one clear error.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, startSync } from './support/ui.ts';

test.use({ harnessOptions: { api: { timeoutMs: 400 } } });

test('a hung API shows "retrying (2 of 4)" while it waits, then a clear error, and the sync stops', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  api.setRule(() => 'hang');
  await startSync(app);
  await expect(app.getByText(/retrying \(2 of 4\)/).first()).toBeVisible({ timeout: 20_000 });
  await expect(app.getByText(/The server did not answer \(4 attempts/).first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(app.getByRole('button', { name: /^(Sync now|Resume sync)$/ })).toBeVisible({
    timeout: 30_000,
  });
});
