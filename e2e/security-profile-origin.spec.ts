/**
 * The token belongs to the address it was entered for. In the settings form, an
 * address on another origin makes the token field required again and says why;
 * main drops the stored token if the address is changed without one.
 */
import { expect, test } from './fixtures.ts';

test('editing a profile to another host asks for its token again, and main keeps nothing for the new host', async ({
  app,
  api,
  fullToken,
}) => {
  const [baseUrl, tokenText] = [JSON.stringify(api.baseUrl), JSON.stringify(fullToken)];
  const saved = await app.evaluate<{ ok: boolean }>(
    `window.fieldbook['profiles:save']({ name: 'North', baseUrl: ${baseUrl}, token: ${tokenText} })`,
  );
  expect(saved.ok).toBe(true);
  await app.evaluate(`location.hash = '#/settings'`);
  await app.getByRole('button', { name: 'Edit North' }).click();
  const form = app.getByRole('form', { name: 'Edit profile North' });
  const token = form.getByLabel('API token');
  await expect(token).not.toHaveAttribute('required', '');

  // the same API under another name: another origin, so the stored token must not follow it
  const moved = api.baseUrl.replace('127.0.0.1', 'localhost');
  await form.getByLabel('Base URL').fill(moved);
  await expect(token).toHaveAttribute('required', '');
  await expect(
    form.getByText(/The stored token belongs to 127\.0\.0\.1:\d+ and is not sent to another address/),
  ).toBeVisible();

  // only the path changed: the token stays
  await form.getByLabel('Base URL').fill(api.baseUrl);
  await expect(token).not.toHaveAttribute('required', '');

  // a caller that skips the form (the bridge itself) gets the token dropped, not carried over
  const list = await app.evaluate<{ value: { profiles: { id: string }[] } }>(
    `window.fieldbook['profiles:list']()`,
  );
  const [id, movedUrl] = [JSON.stringify(list.value.profiles[0]!.id), JSON.stringify(moved)];
  const answer = await app.evaluate<{ ok: boolean; value: { hasToken: boolean } }>(
    `window.fieldbook['profiles:save']({ id: ${id}, name: 'North', baseUrl: ${movedUrl} })`,
  );
  expect(answer.value.hasToken).toBe(false);
  const probe = await app.evaluate<{ value: { error?: { code: string } } }>(
    `window.fieldbook['connection:probe']()`,
  );
  expect(probe.value.error?.code).toBe('token-missing');
});
