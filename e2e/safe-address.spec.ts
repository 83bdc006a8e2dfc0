/**
 * An address that cannot be read (typed by hand, cut short when pasted) shows "not found" and the way back,
 * never a blank window.
 */
import { expect, test } from './fixtures.ts';
import { addProfile } from './support/ui.ts';

test('a malformed address shows "not found" with a way back to the users', async ({
  app,
  api,
  fullToken,
}) => {
  await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
  await app.evaluate(() => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = '#/users/%';
  });
  await expect(app.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await app.getByRole('link', { name: 'Back to users' }).click();
  await expect(
    app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }),
  ).toHaveAttribute('aria-current', 'page');
});
