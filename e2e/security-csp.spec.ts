/**
 * The Content-Security-Policy holds in the running app: markup injected into the
 * page cannot run script (inline, event handler or eval), the page cannot connect
 * anywhere but its own origin, nobody can frame it, and every refusal is reported
 * through a securitypolicyviolation event.
 *
 * The test plants markup with DOM APIs, as an injection bug would; Playwright's
 * own evaluate is not subject to the page's CSP, the planted code is.
 */
import type { Page } from '@playwright/test';
import { cspViolations, expect, test } from './fixtures.ts';

async function pwned(page: Page): Promise<unknown> {
  return page.evaluate('window.__pwned ?? null');
}

test('an inline script planted in the page does not run, and the refusal is reported', async ({ app }) => {
  await app.evaluate(
    `(() => { const s = document.createElement('script'); s.textContent = 'window.__pwned = "inline"'; document.body.append(s); })()`,
  );
  await expect
    .poll(() => cspViolations(app))
    .toContainEqual(expect.stringMatching(/^script-src(-elem)? inline$/));
  expect(await pwned(app)).toBeNull();
});

test('an event-handler attribute planted in the page does not run', async ({ app }) => {
  await app.evaluate(
    `document.body.insertAdjacentHTML('beforeend', '<img alt="" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="window.__pwned = &quot;handler&quot;">')`,
  );
  await expect
    .poll(() => cspViolations(app))
    .toContainEqual(expect.stringMatching(/^script-src(-attr)? inline$/));
  expect(await pwned(app)).toBeNull();
});

test('eval, new Function and string timers are refused, even to a script of the app', async ({
  app,
  harness,
}) => {
  // a script served from the app's own origin (allowed by script-src 'self') that tries to build code from strings
  await app.route(`${harness.origin}/__probe/eval.js`, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `window.__evalProbe = [];
        for (const attempt of [() => eval('1 + 1'), () => new Function('return 1')()]) {
          try { attempt(); window.__evalProbe.push('ran'); } catch (error) { window.__evalProbe.push(error.name); }
        }
        setTimeout('window.__pwned = "timer"', 0);`,
    }),
  );
  await app.evaluate(
    `(() => { const s = document.createElement('script'); s.src = '/__probe/eval.js'; document.body.append(s); })()`,
  );
  await expect.poll(() => app.evaluate('window.__evalProbe ?? null')).toEqual(['EvalError', 'EvalError']);
  await expect.poll(() => cspViolations(app)).toContainEqual(expect.stringMatching(/^script-src eval$/));
  expect(await pwned(app)).toBeNull();
});

test('a script from another origin is refused', async ({ app, api }) => {
  await app.evaluate(
    `(() => { const s = document.createElement('script'); s.src = ${JSON.stringify(`${api.baseUrl}/sites`)}; document.body.append(s); })()`,
  );
  await expect
    .poll(() => cspViolations(app))
    .toContainEqual(expect.stringMatching(/^script-src(-elem)? http:\/\/127\.0\.0\.1/));
  expect(api.log).toEqual([]);
});

test('the page connects to nothing but its own origin: not even the API', async ({ app, api }) => {
  const attempt = await app.evaluate<string>(
    `fetch(${JSON.stringify(`${api.baseUrl}/sites`)}).then(() => 'connected', (error) => error.name)`,
  );
  expect(attempt).toBe('TypeError');
  await expect
    .poll(() => cspViolations(app))
    .toContainEqual(expect.stringMatching(/^connect-src http:\/\/127\.0\.0\.1/));
  expect(api.log).toEqual([]);
});

test('the app cannot be framed, not even by itself', async ({ app, harness }) => {
  const url = JSON.stringify(harness.url);
  await app.evaluate(
    `(() => { const f = document.createElement('iframe'); f.src = ${url}; document.body.append(f); })()`,
  );
  await expect.poll(() => cspViolations(app)).toContainEqual(expect.stringMatching(/^frame-src /));
});
