/**
 * The compliance report, end to end on the demo's largest site: requirements
 * set for two groups (one in the Requirements view, one by dropping an XLSX
 * made with LibreOffice), the report printed as Chromium prints it in the app
 * (Electron's printToPDF, same options) and read with pdftotext, its XLSX and
 * a list's XLSX opened by LibreOffice. Every expected number comes from the
 * cache, never from a constant (the demo's dates move).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { tryTheDemo } from './support/ui.ts';
import { readStoresScript } from './support/browser-scripts.ts';
import { fileDataTransfer } from './support/drop.ts';
import { fodsSheet, frozenHeaders, hasAutofilter, toFods } from './support/fods.ts';
import { chromiumPdfOptions } from '../src/shared/report-pdf.ts';

const run = promisify(execFile);

// the demo a coordinator tries (its Riverside Plant has about 200 people): the report's page budget is set on it
test.use({ serverOptions: { dataset: 'demo', admin: true } });

interface Cache {
  sites: { siteid: number; sitename: string }[];
  users: { userid: number; siteid: number; status: string; firstname: string; lastname: string }[];
  profileCategories: { categoryid: number; siteid: number; categoryname: string }[];
  groups: { groupid: number; siteid: number; categoryid: number; groupname: string }[];
  groupMembers: { groupid: number; userid: number }[];
  credentials: { credentialid: number; credentialname: string; categoryid: number }[];
  credentialCategories: { categoryid: number; siteid: number }[];
  courses: { courseid: number; siteid: number; coursename: string }[];
  credentialAssignments: { userid: number; credentialid: number; expirationIso: string }[];
  trainingAssignments: { userid: number; courseid: number; dueIso: string; course_status: string }[];
}

/** The site with the most people, its Active people, and the two largest groups of a category. */
function choose(cache: Cache) {
  const counts = new Map<number, number>();
  for (const u of cache.users) counts.set(u.siteid, (counts.get(u.siteid) ?? 0) + 1);
  const site = [...cache.sites].sort((a, b) => (counts.get(b.siteid) ?? 0) - (counts.get(a.siteid) ?? 0))[0]!;
  const active = cache.users.filter((u) => u.siteid === site.siteid && u.status === 'Active');
  // Role when the dataset has it (Role = Driver is the coordinator's case), else the category with the most groups
  const groupsOf = (c: { categoryid: number }) =>
    cache.groups.filter((g) => g.siteid === site.siteid && g.categoryid === c.categoryid).length;
  const categories = cache.profileCategories
    .filter((c) => groupsOf(c) >= 2)
    .sort(
      (a, b) =>
        Number(b.categoryname === 'Role') - Number(a.categoryname === 'Role') || groupsOf(b) - groupsOf(a),
    );
  const role = categories[0]!;
  const size = (g: { groupid: number }) => cache.groupMembers.filter((m) => m.groupid === g.groupid).length;
  const [first, second] = cache.groups
    .filter((g) => g.categoryid === role.categoryid)
    .sort((a, b) => size(b) - size(a) || a.groupname.localeCompare(b.groupname));
  const siteCategories = new Set(
    cache.credentialCategories.filter((c) => c.siteid === site.siteid).map((c) => c.categoryid),
  );
  const credentials = cache.credentials
    .filter((c) => siteCategories.has(c.categoryid))
    .sort((a, b) => a.credentialname.localeCompare(b.credentialname));
  const course = cache.courses
    .filter((c) => c.siteid === site.siteid)
    .sort((a, b) => a.coursename.localeCompare(b.coursename))[0]!;
  return {
    site,
    active,
    role,
    groups: [first!, second!] as const,
    credentials: credentials.slice(0, 2),
    course,
  };
}

/** Who is compliant among the Active people: nothing expired, no training overdue, nothing required missing. */
function expectedCompliance(cache: Cache, chosen: ReturnType<typeof choose>, today: string) {
  const inGroup = (groupid: number, userid: number) =>
    cache.groupMembers.some((m) => m.groupid === groupid && m.userid === userid);
  const compliant = chosen.active.filter((u) => {
    const held = cache.credentialAssignments.filter((a) => a.userid === u.userid);
    const best = new Map<number, string>();
    for (const a of held)
      if (
        best.get(a.credentialid) !== '' &&
        (!best.has(a.credentialid) || !a.expirationIso || a.expirationIso > best.get(a.credentialid)!)
      )
        best.set(a.credentialid, a.expirationIso);
    if ([...best.values()].some((d) => d && d < today)) return false;
    const training = cache.trainingAssignments.filter((t) => t.userid === u.userid);
    if (
      training.some(
        (t) => t.course_status.trim().toLowerCase() !== 'completed' && t.dueIso && t.dueIso < today,
      )
    )
      return false;
    if (
      inGroup(chosen.groups[0].groupid, u.userid) &&
      chosen.credentials.some((c) => !best.has(c.credentialid))
    )
      return false;
    if (
      inGroup(chosen.groups[1].groupid, u.userid) &&
      !training.some((t) => t.courseid === chosen.course.courseid)
    )
      return false;
    return true;
  });
  const missingFirst = chosen.active.filter(
    (u) =>
      inGroup(chosen.groups[0].groupid, u.userid) &&
      !cache.credentialAssignments.some(
        (a) => a.userid === u.userid && a.credentialid === chosen.credentials[0]!.credentialid,
      ),
  );
  return { compliant: compliant.length, missingFirst: missingFirst.length };
}

async function saveDownload(app: Page, dir: string, button: string): Promise<string> {
  const [download] = await Promise.all([
    app.waitForEvent('download'),
    app.getByRole('button', { name: button, exact: true }).click(),
  ]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  return file;
}

/** An XLSX of requirements as a coordinator makes it: typed as CSV, saved as XLSX by LibreOffice. */
async function libreOfficeXlsx(dir: string, rows: string[][]): Promise<Buffer> {
  const csv = path.join(dir, 'requirements.csv');
  await writeFile(csv, rows.map((r) => r.map((c) => `"${c.replace(/"/g, '""')}"`).join(',')).join('\n'));
  await run(
    'soffice',
    [
      `-env:UserInstallation=file://${dir}/lo-make`,
      '--headless',
      '--infilter=CSV:44,34,76',
      '--convert-to',
      'xlsx:Calc MS Excel 2007 XML',
      '--outdir',
      dir,
      csv,
    ],
    { timeout: 120_000 },
  );
  return readFile(path.join(dir, 'requirements.xlsx'));
}

test('requirements set for two groups, the report of a site as a short PDF and typed spreadsheets', async ({
  app,
}) => {
  test.setTimeout(300_000);
  await tryTheDemo(app);
  const cache = (await app.evaluate(
    readStoresScript([
      'sites',
      'users',
      'profileCategories',
      'groups',
      'groupMembers',
      'credentials',
      'credentialCategories',
      'courses',
      'credentialAssignments',
      'trainingAssignments',
    ]),
  )) as Cache;
  const chosen = choose(cache);
  const today = new Date().toISOString().slice(0, 10);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-report-'));
  try {
    // with no requirement set: no Missing anywhere, the report says how to set them, and it fits the page budget
    await app.goto(`${app.url().split('#')[0]}#/report`);
    await app.getByRole('combobox', { name: 'Site' }).selectOption({ label: chosen.site.sitename });
    const bare = app.getByRole('article', { name: 'Report' });
    await expect(bare).toContainText('No requirements are set');
    await expect(bare).toContainText('Set what each group must hold in Requirements');
    await expect(
      app.getByRole('group', { name: 'Findings' }).getByRole('checkbox', { name: 'Missing' }),
    ).toHaveCount(0);
    await expect(bare.getByRole('table', { name: 'Findings by type' })).not.toContainText('Missing');
    const barePdf = path.join(dir, 'report-no-requirements.pdf');
    await app.pdf({ path: barePdf, ...chromiumPdfOptions('A4') });
    const barePages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [barePdf])).stdout)?.[1]);
    console.info(`report PDF A4 without requirements: ${barePages} pages`);
    expect(barePages).toBeLessThanOrEqual(12);

    // the first group's two credentials in the view
    await app.goto(`${app.url().split('#')[0]}#/requirements`);
    await expect(app.getByText('never sent to the platform')).toBeVisible();
    await app.getByLabel('Site').selectOption({ label: chosen.site.sitename });
    await app.getByLabel('Columns').selectOption({ label: `${chosen.role.categoryname} groups` });
    for (const c of chosen.credentials) {
      const box = app.getByRole('checkbox', {
        name: `${c.credentialname} required of ${chosen.groups[0].groupname}`,
        exact: true,
      });
      await box.click(); // stored, then shown checked (the grid shows what the database holds)
      await expect(box).toBeChecked();
    }
    // the second group's course from a spreadsheet
    const xlsx = await libreOfficeXlsx(dir, [
      ['Site', 'Applies to', 'Group or user type', 'Kind', 'Credential or course'],
      [
        chosen.site.sitename,
        'Group',
        `${chosen.role.categoryname}: ${chosen.groups[1].groupname}`,
        'Course',
        chosen.course.coursename,
      ],
    ]);
    await app
      .locator('.requirements-import')
      .dispatchEvent('drop', { dataTransfer: await fileDataTransfer(app, 'requirements.xlsx', xlsx) });
    await expect(
      app.getByRole('status').filter({ hasText: 'requirements.xlsx: 1 requirement added' }),
    ).toBeVisible();
    await expect(
      app.getByRole('checkbox', {
        name: `Course: ${chosen.course.coursename} required of ${chosen.groups[1].groupname}`,
        exact: true,
      }),
    ).toBeChecked();
    const expected = expectedCompliance(cache, chosen, today);

    await app.goto(`${app.url().split('#')[0]}#/report`);
    await app.getByRole('combobox', { name: 'Site' }).selectOption({ label: chosen.site.sitename });
    const report = app.getByRole('article', { name: 'Report' });
    await expect(
      report.getByRole('heading', { name: `Compliance report – ${chosen.site.sitename}` }),
    ).toBeVisible();
    await expect(app.getByRole('combobox', { name: 'Group by' })).toHaveValue(String(chosen.role.categoryid));
    await expect(report).toContainText(`${chosen.active.length} people in scope`);
    await expect(report).toContainText(`${expected.compliant} compliant`);
    const missing = report.getByRole('table', { name: 'By credential' }).getByRole('row', {
      name: new RegExp(`^${chosen.credentials[0]!.credentialname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `),
    });
    await expect(missing.getByRole('cell').last()).toHaveText(String(expected.missingFirst));

    await checkPdf(app, dir, chosen, expected.compliant, cache);
    await checkReportXlsx(app, dir);
    await checkListXlsx(app, dir, cache);

    // one group's requirements copied to another: the second now requires the first's credentials too
    await app.goto(`${app.url().split('#')[0]}#/requirements`);
    await app.getByLabel('Site').selectOption({ label: chosen.site.sitename });
    await app.getByLabel('Columns').selectOption({ label: `${chosen.role.categoryname} groups` });
    await app
      .getByRole('combobox', { name: 'Copy the requirements of' })
      .selectOption(
        { label: `${chosen.role.categoryname}: ${chosen.groups[0].groupname} (2)` },
        { timeout: 10_000 },
      );
    await app
      .getByRole('combobox', { name: 'Copy them to' })
      .selectOption(
        { label: `${chosen.role.categoryname}: ${chosen.groups[1].groupname}` },
        { timeout: 10_000 },
      );
    await app.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(
      app.getByRole('status').filter({
        hasText: `2 requirements copied to ${chosen.role.categoryname}: ${chosen.groups[1].groupname}.`,
      }),
    ).toBeVisible();
    for (const c of chosen.credentials)
      await expect(
        app.getByRole('checkbox', {
          name: `${c.credentialname} required of ${chosen.groups[1].groupname}`,
          exact: true,
        }),
      ).toBeChecked();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

async function checkPdf(
  app: Page,
  dir: string,
  chosen: ReturnType<typeof choose>,
  compliant: number,
  cache: Cache,
) {
  const pdfFile = path.join(dir, 'report-A4.pdf');
  await app.pdf({ path: pdfFile, ...chromiumPdfOptions('A4') });
  const pages = Number(/Pages:\s+(\d+)/.exec((await run('pdfinfo', [pdfFile])).stdout)?.[1]);
  const text = (await run('pdftotext', ['-layout', pdfFile, '-'])).stdout;
  const perPage = text.split('\f').slice(0, pages);
  console.info(`report PDF A4: ${pages} pages`);
  expect(pages).toBeLessThanOrEqual(12);
  expect(pages).toBeGreaterThan(2);
  // page 1: the title, the scope and choices, and the summary's figures
  expect(perPage[0]).toContain(`Compliance report – ${chosen.site.sitename}`);
  expect(perPage[0]).toMatch(
    new RegExp(
      `${chosen.site.sitename}\\s+·\\s+grouped by ${chosen.role.categoryname}\\s+·\\s+Active people`,
    ),
  );
  expect(perPage[0]).toContain('data as of');
  expect(perPage[0]).toMatch(new RegExp(`${chosen.active.length} people\\s+in scope`));
  expect(perPage[0]).toMatch(new RegExp(`${compliant} compliant`));
  expect(perPage[0]).toMatch(/Group\s+People\s+Compliant/);
  expect(perPage[0]).not.toMatch(/Users\s+Credentials\s+Training/); // the app around the report is not printed
  expect(text).toContain(`Page ${pages} of ${pages}`);
  // every page but the last has a table's header
  for (const [i, page] of perPage.slice(0, -1).entries())
    expect(page, `page ${i + 1}`).toMatch(
      /Person\s+Employee ID\s+Findings|Credential\s+Holders\s+Not|Group\s+People\s+Compliant/,
    );
  // no date wrapped: "(Mar 2, 2026)" never ends a line after "(Mar" nor starts one with "2, 2026)"
  expect(text).toMatch(/\((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\)/);
  expect(text).not.toMatch(
    /\((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)(?: \d{1,2},?)?[ \t]*$|^[ \t]*(?:\d{1,2}, )?\d{4}\)/m,
  );
  // no name of a person or a group split across lines: each of their words is a word of the text
  const words = new Set(text.split(/[\s,()·:;]+/u));
  const plainWords = (s: string) => s.split(/\s+/).filter((w) => /^[\p{L}'-]{2,}$/u.test(w));
  const groupWords = cache.groups
    .filter((g) => g.siteid === chosen.site.siteid && g.categoryid === chosen.role.categoryid)
    .flatMap((g) => plainWords(g.groupname));
  const nameWords = chosen.active.flatMap((u) => [...plainWords(u.lastname), ...plainWords(u.firstname)]);
  expect([...groupWords, ...nameWords].filter((w) => !words.has(w))).toEqual([]);
}

async function checkReportXlsx(app: Page, dir: string) {
  const file = await saveDownload(app, dir, 'Export XLSX');
  expect(path.basename(file)).toMatch(/^Compliance report - .* \d{4}-\d{2}-\d{2}\.xlsx$/);
  const fods = await toFods(file);
  const findings = fodsSheet(fods, 'Findings');
  expect(findings[0]!.slice(0, 8).map((c) => c.text)).toEqual([
    'Group',
    'Person',
    'User ID',
    'Employee ID',
    'Also in',
    'Finding',
    'Credential or course',
    'Date',
  ]);
  const dated = findings.slice(1).filter((row) => row[7]?.type);
  expect(dated.length).toBeGreaterThan(0);
  expect(new Set(dated.map((row) => row[7]!.type))).toEqual(new Set(['date']));
  expect(
    new Set(
      findings
        .slice(1)
        .filter((r) => r[2]?.type)
        .map((row) => row[2]!.type),
    ),
  ).toEqual(new Set(['string']));
  const summary = fodsSheet(fods, 'Summary');
  const inScope = summary.find((row) => row[0]?.text === 'People in scope')!;
  expect(inScope.slice(1, 4).map((c) => c.type)).toEqual(['float', 'float', 'float']);
  const byCredential = fodsSheet(fods, 'By credential');
  expect(
    new Set(
      byCredential
        .slice(1)
        .filter((r) => r[0]?.type)
        .flatMap((row) => row.slice(1, 9).map((c) => c.type)),
    ),
  ).toEqual(new Set(['float']));
  for (const sheet of ['Summary', 'Findings', 'By credential'])
    expect(hasAutofilter(fods, sheet), sheet).toBe(true);
  expect(await frozenHeaders(file)).toEqual([true, true, true]);
}

async function checkListXlsx(app: Page, dir: string, cache: Cache) {
  const counts = new Map<number, number>();
  for (const a of cache.credentialAssignments)
    counts.set(a.credentialid, (counts.get(a.credentialid) ?? 0) + 1);
  const credential = [...cache.credentials].sort(
    (a, b) => (counts.get(b.credentialid) ?? 0) - (counts.get(a.credentialid) ?? 0),
  )[0]!;
  await app.goto(`${app.url().split('#')[0]}#/credentials/${credential.credentialid}`);
  const holders = app.getByRole('region', { name: `Holders: ${credential.credentialname}` });
  const [download] = await Promise.all([
    app.waitForEvent('download'),
    holders.getByRole('button', { name: /as XLSX$/ }).click(),
  ]);
  const file = path.join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const fods = await toFods(file);
  const sheetName = /<table:table table:name="([^"]+)"/.exec(fods)![1]!;
  const rows = fodsSheet(fods, sheetName);
  const header = rows[0]!.map((c) => c.text);
  const column = (name: string) => header.indexOf(name);
  const typesOf = (name: string) =>
    new Set(
      rows
        .slice(1)
        .map((r) => r[column(name)]!)
        .filter((c) => c.type)
        .map((c) => c.type),
    );
  expect(typesOf('Expires')).toEqual(new Set(['date']));
  expect(typesOf('Employee ID')).toEqual(new Set(['string']));
  expect(hasAutofilter(fods, sheetName)).toBe(true);
  expect(await frozenHeaders(file)).toEqual([true]);
}
