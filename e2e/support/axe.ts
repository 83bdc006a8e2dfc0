/**
 * axe-core in the app's page, under its real CSP: the library's source is
 * evaluated by Playwright through the DevTools protocol (not a <script> tag,
 * which the CSP refuses; axe-core 4 itself needs no eval), then `axe.run`
 * reports violations as "rule (impact): selectors" lines.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from '@playwright/test';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const RUN = `(async () => {
  const result = await window.axe.run(document, { resultTypes: ['violations'] });
  const summary = (n) => (n.failureSummary ? ' [' + n.failureSummary.split('\\n').slice(1, 2).join('').trim() + ']' : '');
  const nodes = (v) => v.nodes.slice(0, 6).map((n) => n.target.join(' ') + summary(n)).join(' | ');
  return result.violations.map((v) => v.id + ' (' + v.impact + '): ' + nodes(v));
})()`;

export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate<boolean>('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate<string[]>(RUN);
}
