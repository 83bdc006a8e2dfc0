/**
 * The compliance report, end to end on a site of the demo: its totals agree
 * with the cache, it exports as CSV and XLSX (read back by LibreOffice), and
 * its print view, printed by Chromium (as Electron's printToPDF prints it in
 * the app, with the same options), gives a PDF with the title, the site, the
 * "data as of" line, page numbers and the table header on every page.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from './fixtures.ts';
import { goTo, tryTheDemo } from './support/ui.ts';
import { readStoresScript } from './support/browser-scripts.ts';
import { chromiumPdfOptions } from '../src/shared/report-pdf.ts';

const run = promisify(execFile);

interface Cache {
  sites: { siteid: number; sitename: string }[];
  users: { userid: number; siteid: number }[];
  credentialAssignments: { userid: number; expirationIso: string }[];
  trainingAssignments: { userid: number; dueIso: string; course_status: string }[];
}

const addDays = (iso: string, days: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

test('the report of a site agrees with the cache, exports as CSV and XLSX, and prints to a paged PDF', async ({ app }) => {
  test.setTimeout(180_000);
  await tryTheDemo(app);
  const cache = (await app.evaluate(readStoresScript(['sites', 'users', 'credentialAssignments', 'trainingAssignments']))) as Cache;
  // the site with the most people
  const counts = new Map<number, number>();
  for (const u of cache.users) counts.set(u.siteid, (counts.get(u.siteid) ?? 0) + 1);
  const site = cache.sites.sort((a, b) => (counts.get(b.siteid) ?? 0) - (counts.get(a.siteid) ?? 0))[0]!;
  const people = new Set(cache.users.filter((u) => u.siteid === site.siteid).map((u) => u.userid));
  const today = new Date().toISOString().slice(0, 10);
  const held = cache.credentialAssignments.filter((a) => people.has(a.userid) && a.expirationIso);
  const open = cache.trainingAssignments.filter((t) => people.has(t.userid) && t.course_status.trim().toLowerCase() !== 'completed' && t.dueIso);
  const expected = {
    people: people.size,
    expired: held.filter((a) => a.expirationIso < today).length,
    within30: held.filter((a) => a.expirationIso >= today && a.expirationIso <= addDays(today, 30)).length,
    within60: held.filter((a) => a.expirationIso > addDays(today, 30) && a.expirationIso <= addDays(today, 60)).length,
    within90: held.filter((a) => a.expirationIso > addDays(today, 60) && a.expirationIso <= addDays(today, 90)).length,
    overdue: open.filter((t) => t.dueIso < today).length,
    dueSoon: open.filter((t) => t.dueIso >= today && t.dueIso <= addDays(today, 30)).length,
  };

  await goTo(app, 'Report');
  await app.getByRole('combobox', { name: 'Site' }).selectOption({ label: site.sitename });
  const report = app.getByRole('article', { name: 'Report' });
  await expect(report.getByRole('heading', { name: `Compliance report – ${site.sitename}` })).toBeVisible();
  await expect(report).toContainText('data as of');
  const all = report.getByRole('table', { name: 'Totals per group' }).getByRole('row', { name: /^All \(each person once\)/ });
  const cells = (await all.getByRole('cell').allTextContents()).map((c) => Number(c.replace(/\D/g, '')));
  // People, Expired, within 30, within 60, within 90, Missing, Training overdue, Training due soon
  expect({ people: cells[0], expired: cells[1], within30: cells[2], within60: cells[3], within90: cells[4], overdue: cells[6], dueSoon: cells[7] }).toEqual(expected);

  // CSV and XLSX, as a user saves them
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-report-'));
  try {
    const save = async (button: string) => {
      const [download] = await Promise.all([app.waitForEvent('download'), app.getByRole('button', { name: button }).click()]);
      // named in plain ASCII: under a C locale (as in CI) Chromium turned the en dash's name into "download"
      expect(download.suggestedFilename()).toMatch(/^Compliance report - .* \d{4}-\d{2}-\d{2}\.(csv|xlsx)$/);
      const file = path.join(dir, download.suggestedFilename());
      await download.saveAs(file);
      return file;
    };
    const csvFile = await save('Export CSV');
    const csv = (await readFile(csvFile, 'utf8')).trim().split('\r\n');
    expect(csv[0]).toBe('"Group","Person","User ID","Finding","Credential or course","Date"');
    // a person in several groups is listed under each: each expired assignment once per person
    const expiredRows = csv.map((line) => line.split('","')).filter((cells) => cells[3] === 'Expired');
    expect(new Set(expiredRows.map((cells) => `${cells[2]}|${cells[4]}`)).size).toBe(expected.expired);
    const xlsxFile = await save('Export XLSX');
    // LibreOffice reads the workbook: its first sheet is the findings, row for row as the CSV
    // the filters named, not left to type detection: what is read is always the workbook as Calc reads it
    await run('soffice', [`-env:UserInstallation=file://${dir}/lo`, '--headless', '--infilter=Calc MS Excel 2007 XML', '--convert-to', 'csv:Text - txt - csv (StarCalc):44,34,76', '--outdir', dir, xlsxFile], { timeout: 90_000 });
    const converted = (await readFile(xlsxFile.replace(/\.xlsx$/, '.csv'), 'utf8')).trim().split(/\r?\n/);
    expect(converted).toHaveLength(csv.length);
    expect(converted[0]).toBe('Group,Person,User ID,Finding,Credential or course,Date');

    // the print view, printed by Chromium with the options the app gives printToPDF
    for (const size of ['A4', 'Letter'] as const) {
      await app.getByRole('combobox', { name: 'Paper' }).selectOption(size);
      const pdfFile = path.join(dir, `report-${size}.pdf`);
      await app.pdf({ path: pdfFile, ...chromiumPdfOptions(size) });
      const info = (await run('pdfinfo', [pdfFile])).stdout;
      const pages = Number(/Pages:\s+(\d+)/.exec(info)?.[1]);
      expect(info).toMatch(size === 'A4' ? /Page size:\s+595\.\d* x 841\.\d*|Page size:\s+595\.\d* x 842/ : /Page size:\s+612 x 792/);
      const text = (await run('pdftotext', ['-layout', pdfFile, '-'])).stdout;
      expect(text).toContain(`Compliance report – ${site.sitename}`);
      expect(text).toContain('data as of');
      expect(text).not.toMatch(/Users\s+Credentials\s+Training\s+Access/); // the app around the report (its tabs) is not printed
      expect(text).toContain(`Page ${pages} of ${pages}`);
      // the findings table's header on every page it spans
      const perPage = text.split('\f').filter((p) => p.trim());
      expect(perPage).toHaveLength(pages);
      expect(pages).toBeGreaterThan(1); // else "the header on every page" would prove nothing
      const withFindings = perPage.filter((p) => /Expired|Missing|Training overdue|Training due soon|Expires within/.test(p));
      for (const page of withFindings) expect(page).toMatch(/Group\s+Person\s+Finding\s+Credential or course\s+Date/);
      console.info(`report PDF ${size}: ${pages} pages, findings on ${withFindings.length}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
