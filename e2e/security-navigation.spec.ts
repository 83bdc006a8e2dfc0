/**
 * Navigation and windows. In Electron, will-navigate and setWindowOpenHandler
 * refuse these (unit-tested in src/main/security/window-rules.test.ts); here the
 * harness applies the very same functions to the browser context, and the specs
 * check that the app gives them nothing to let through: the page stays where it
 * is, no second window survives, and only a safe web link reaches the (stubbed)
 * system browser.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** A link as injected markup would make it (DOM APIs: the CSP forbids inline script, not DOM edits from the test). */
async function plantLink(page: Page, href: string, id: string): Promise<void> {
  const [idText, hrefText] = [JSON.stringify(id), JSON.stringify(href)];
  await page.evaluate(`(() => {
    const a = document.createElement('a');
    a.id = ${idText};
    a.href = ${hrefText};
    a.textContent = 'planted link ' + ${idText};
    a.style.display = 'block';
    a.style.padding = '8px';
    document.body.prepend(a);
  })()`);
}

async function expectStillTheApp(page: Page, origin: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Welcome to Fieldbook' })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(origin);
  expect(page.context().pages()).toEqual([page]);
}

test('navigating the window to another origin is refused', async ({ app, harness, watch }) => {
  for (const target of [
    'https://evil.invalid/',
    `http://example.invalid/?next=${harness.origin}/`,
    `http://127.0.0.1:1/`,
  ]) {
    await app.evaluate(`location.href = ${JSON.stringify(target)}`);
    await expect.poll(() => watch.refusedNavigations).toContain(target);
  }
  await expectStillTheApp(app, harness.origin);
});

test('window.open opens no window; a web link goes to the system browser, a local one nowhere', async ({
  app,
  harness,
  watch,
}) => {
  await app.evaluate(`window.open('https://docs.example.com/help', '_blank')`);
  await app.evaluate(`window.open('http://127.0.0.1:${harness.port}/', '_blank')`);
  await expect.poll(() => watch.refusedWindows.length).toBe(2);
  await expect.poll(() => app.context().pages().length).toBe(1);
  expect(watch.externalOpens).toEqual(['https://docs.example.com/help']);
  await expectStillTheApp(app, harness.origin);
});

test('a middle-click on a link opens no window', async ({ app, harness, watch }) => {
  await plantLink(app, 'https://evil.invalid/middle', 'middle');
  await app.locator('#middle').click({ button: 'middle' });
  // the browser makes the tab before any rule can see its URL: it is closed at once (Electron denies it outright)
  await expect.poll(() => watch.closedWindows + watch.refusedWindows.length).toBeGreaterThan(0);
  await expect.poll(() => app.context().pages().length).toBe(1);
  await expectStillTheApp(app, harness.origin);
});

test('a link dropped onto the window does not replace the app', async ({ app, harness, watch }) => {
  await plantLink(app, 'https://evil.invalid/dropped', 'dropped');
  // the drag ends (dragend on the link) once the drop has been handled: by then any attempt to follow it has been made
  const dragEnded = app
    .locator('#dropped')
    .evaluate(
      (link) =>
        new Promise<void>((resolve) => link.addEventListener('dragend', () => resolve(), { once: true })),
    );
  await app.locator('#dropped').dragTo(app.getByRole('heading', { name: 'Welcome to Fieldbook' }));
  await dragEnded;
  // recorded before the rule judged them: every attempt to follow the drop was refused, and nothing else was
  const followed = watch.navigationAttempts.filter((url) => !url.startsWith(`${harness.origin}/`));
  expect(watch.refusedNavigations).toEqual(followed);
  expect(followed.every((url) => url === 'https://evil.invalid/dropped')).toBe(true);
  await expectStillTheApp(app, harness.origin);
});

test('a target=_blank link opens no window', async ({ app, harness, watch }) => {
  await plantLink(app, 'https://evil.invalid/blank', 'blank');
  await app.locator('#blank').evaluate((element) => element.setAttribute('target', '_blank'));
  await app.locator('#blank').click();
  await expect.poll(() => watch.refusedWindows).toContain('https://evil.invalid/blank');
  await expect.poll(() => app.context().pages().length).toBe(1);
  // a web link: handed to the system browser, never opened in the app
  expect(watch.externalOpens).toEqual(['https://evil.invalid/blank']);
  await expectStillTheApp(app, harness.origin);
});

test('the page has no way to ask main to open a URL in the system browser', async ({ app, watch }) => {
  // app:openExternal was removed from the contract: the renderer never used it
  expect(await app.evaluate(`'app:openExternal' in window.fieldbook`)).toBe(false);
  expect(watch.externalOpens).toEqual([]);
});
