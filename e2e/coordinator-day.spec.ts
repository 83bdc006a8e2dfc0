/**
 * A coordinator's day on the demo dataset: act on the lists the views show
 * (renew a credential's expiring holders from the credential's view, move the
 * due date of a course's overdue people), with a selection that says what it
 * holds, and a dashboard whose every number opens the list it counts. Every
 * expected number is read from the reference server or the view, never typed in.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo, openHash, syncNow, usersCount, usersGrid } from './support/ui.ts';
import { COUNT_LINE, countedIn, listedCount } from './support/count-line.ts';
import { axeViolations } from './support/axe.ts';
import { addDaysIso, toIsoDate, todayIso } from '../src/shared/dates.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

test.beforeEach(async ({ app, api, fullToken }) => {
  test.setTimeout(150_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

/** Counts what the user clicks (a choice picked from a list is a click too); typing is not counted. */
function clickCounter() {
  let clicks = 0;
  return {
    click: async (target: Locator) => {
      clicks += 1;
      await target.click();
    },
    pick: async (target: Locator, label: string) => {
      clicks += 1;
      await target.selectOption({ label });
    },
    get count() {
      return clicks;
    },
  };
}

type Held = { userid: number; credentialid: number; credentialname: string; expirationdate: string };

/** The credential with the most holders (of our sites) expiring from today through 60 days, and those holders. */
function credentialExpiringWithin60(server: ReferenceServer): {
  credentialid: number;
  credentialname: string;
  held: Held[];
} {
  const today = todayIso();
  const last = addDaysIso(today, 60);
  const rows = server
    .query<Held>(
      `SELECT a.userid, a.credentialid, c.credentialname, a.expirationdate FROM credential_assignments a
     JOIN users u ON u.userid = a.userid JOIN credentials c ON c.credentialid = a.credentialid WHERE u.siteid < 900`,
    )
    .filter((a) => {
      const iso = toIsoDate(a.expirationdate);
      return iso >= today && iso <= last;
    });
  const byCredential = new Map<number, Held[]>();
  for (const a of rows) byCredential.set(a.credentialid, [...(byCredential.get(a.credentialid) ?? []), a]);
  const [credentialid, held] = [...byCredential.entries()].sort(
    ([a, x], [b, y]) => y.length - x.length || a - b,
  )[0]!;
  return { credentialid, credentialname: held[0]!.credentialname, held };
}

test('the holders expiring within 60 days are renewed from the credential’s view in at most 5 clicks, and the server has the new date', async ({
  app,
  server,
}) => {
  const { credentialid, credentialname, held } = credentialExpiringWithin60(server);
  const renewed = addDaysIso(todayIso(), 730);
  await openHash(app, `#/credentials/${credentialid}`);
  const holders = app.getByRole('region', { name: `Holders: ${credentialname}` });
  await expect(holders.getByRole('grid')).toBeVisible();

  const user = clickCounter();
  await user.pick(holders.getByLabel('Show'), 'Expiring within 60 days');
  await user.click(holders.getByRole('button', { name: `Select all ${held.length} matching` }));
  await expect(holders.getByRole('status').filter({ hasText: /selected/ })).toHaveText(
    held.length === 1 ? '1 person selected' : `${held.length} people selected`,
  );
  // the bulk panel opens on "renew this credential": only the new date is typed
  await holders.getByLabel(/^Expiration date/).fill(renewed);
  await user.click(holders.getByRole('button', { name: 'Preview' }));
  await expect(holders.getByRole('region', { name: 'Preview' })).toContainText(
    `${held.length} ${held.length === 1 ? 'change' : 'changes'} to queue`,
  );
  await user.click(
    holders.getByRole('button', { name: `Queue ${held.length} ${held.length === 1 ? 'change' : 'changes'}` }),
  );
  expect(user.count).toBeLessThanOrEqual(5);

  // the selection is spent; focus is on the confirmation and its Undo
  const confirmation = app.getByRole('status').filter({ hasText: /^Queued / });
  await expect(confirmation).toBeFocused();
  await expect(confirmation.getByRole('button', { name: 'Undo' })).toBeVisible();
  await expect(holders.getByRole('status').filter({ hasText: /selected/ })).toHaveCount(0);

  const heldIds = held.map((h) => h.userid).join(',');
  const expirations = () =>
    server
      .query<{ expirationdate: string }>(
        `SELECT expirationdate FROM credential_assignments WHERE credentialid = ? AND userid IN (${heldIds})`,
        credentialid,
      )
      .map((a) => toIsoDate(a.expirationdate));
  await expect.poll(expirations, { timeout: 45_000 }).toEqual(held.map(() => renewed));
});

/** The total a list's count line gives ("500 of 1,234 credentials held (scroll for more)" or "1,234 holders"). */
async function assignmentsCounted(list: Locator): Promise<number> {
  return (await countedIn(list)).total;
}

test('the overdue people of a course are selected from the course’s list and get a new due date on the server', async ({
  app,
  server,
}) => {
  // the course with the most overdue people, as the course list counts them
  await goTo(app, 'Training');
  const courses = app.getByRole('grid', { name: 'Course list' });
  await expect(courses.getByRole('row').nth(1)).toBeVisible();
  const course = server.query<{ courseid: number; coursename: string }>(
    'SELECT courseid, coursename FROM courses WHERE siteid < 900 ORDER BY courseid',
  );
  let chosen: { courseid: number; coursename: string; overdue: number } | null = null;
  for (const c of course) {
    await openHash(app, `#/training/course/${c.courseid}`);
    const overdue = await assignmentsCounted(app.getByRole('region', { name: c.coursename }));
    if (overdue >= 2) {
      chosen = { ...c, overdue };
      break;
    }
  }
  expect(chosen, 'a course with overdue people').not.toBeNull();
  const { courseid, coursename, overdue } = chosen!;
  const list = app.getByRole('region', { name: coursename });
  const before = server.query<{ due_date: string }>(
    'SELECT due_date FROM training_assignments WHERE courseid = ?',
    courseid,
  );
  const newDue = addDaysIso(todayIso(), 45);

  await list.getByRole('button', { name: `Select all ${overdue} matching` }).click();
  await expect(list.getByLabel('Assign training', { exact: true })).toHaveValue(String(courseid));
  await list.getByLabel('Due date').fill(newDue);
  await list.getByRole('button', { name: 'Preview' }).click();
  await list
    .getByRole('button', { name: `Queue ${overdue} ${overdue === 1 ? 'change' : 'changes'}` })
    .click();
  // the people now have a due date in the future: the overdue list no longer has them
  await expect(list.getByRole('status').filter({ hasText: COUNT_LINE })).toHaveText(
    /^0 (training assignments|people)$/,
  );

  const movedOnServer = () =>
    server
      .query<{ due_date: string }>('SELECT due_date FROM training_assignments WHERE courseid = ?', courseid)
      .filter((t) => toIsoDate(t.due_date) === newDue).length;
  const alreadyThere = before.filter((t) => toIsoDate(t.due_date) === newDue).length;
  await expect.poll(movedOnServer, { timeout: 45_000 }).toBe(alreadyThere + overdue);
});

/**
 * Records, at every change of the page, the course panel's heading beside its count line and its "Select all" button.
 */
async function recordCoursePanel(app: Page): Promise<() => Promise<string[][]>> {
  await app.evaluate(`(() => {
    const seen = [];
    const record = () => {
      const panel = document.querySelector('section[aria-labelledby="course-training-heading"]');
      const text = (selector) => panel?.querySelector(selector)?.textContent ?? '';
      const selectAll = [...(panel?.querySelectorAll('button') ?? [])].find((b) => b.textContent.startsWith('Select all'));
      seen.push([text('h2'), text('p.count'), selectAll?.textContent ?? '']);
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, characterData: true });
    window.coursePanelSeen = seen;
  })()`);
  return () => app.evaluate<string[][]>('window.coursePanelSeen');
}

test('opening a course never shows the previous list’s count or its "Select all" under the course’s name', async ({
  app,
  server,
}) => {
  await goTo(app, 'Training');
  const everyCourse = await assignmentsCounted(app.getByRole('region', { name: 'All courses' }));
  const course = server.query<{ courseid: number; coursename: string }>(
    'SELECT courseid, coursename FROM courses WHERE siteid < 900 ORDER BY courseid LIMIT 1',
  )[0]!;
  const seen = await recordCoursePanel(app);
  await app.evaluate(`window.location.hash = '#/training/course/${course.courseid}'`);
  const own = await assignmentsCounted(app.getByRole('region', { name: course.coursename }));
  expect(own, 'a course has fewer overdue people than all courses together').toBeLessThan(everyCourse);

  const underTheCourse = (await seen()).filter(([heading]) => heading === course.coursename);
  expect(underTheCourse.length).toBeGreaterThan(0);
  for (const [, count, selectAll] of underTheCourse) {
    expect(['Loading…', own === 1 ? '1 person' : `${own} people`]).toContain(count);
    expect(['', `Select all ${own} matching`]).toContain(selectAll);
  }
});

function selectedLine(app: Page): Locator {
  return app.getByRole('region', { name: 'Selected people' }).getByRole('status');
}

test('selected people a filter hides are counted as not shown, and a change queued under a filter clears the selection', async ({
  app,
}) => {
  await goTo(app, 'Users');
  await app.getByRole('combobox', { name: /^Status/ }).selectOption('Active');
  await expect(usersCount(app)).toHaveText(/^[\d,]+ of [\d,]+ users$/);
  const activeBefore = Number(
    /^([\d,]+) of/.exec((await usersCount(app).textContent())!)![1]!.replace(/,/g, ''),
  );
  const rows = usersGrid(app).getByRole('row');
  // click the first, shift-click the third: three people, and no text painted over the rows
  await rows.nth(1).click();
  await expect(app.getByLabel('Bulk action')).toBeVisible();
  await rows.nth(3).click({ modifiers: ['Shift'] });
  await expect(selectedLine(app)).toHaveText('3 people selected');
  expect(await app.evaluate<string>('window.getSelection()?.toString() ?? ""')).toBe('');
  await expect(rows.nth(2).getByRole('checkbox')).toBeChecked();

  // a search that leaves out the selected people: the count says so
  const firstName = (await rows.nth(1).getByRole('link').first().textContent())!;
  await app.getByLabel('Search users').fill('zzzz-nobody');
  await expect(selectedLine(app)).toContainText('3 selected are not shown');
  await app.getByLabel('Search users').fill('');
  await expect(selectedLine(app)).toHaveText('3 people selected');
  expect(firstName).not.toBe('');

  // queue Inactive under Status = Active: the three leave the list, and the selection goes with them
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await expect(app.getByRole('region', { name: 'Preview' })).toContainText('3 changes to queue');
  // a preview is of the people it was made for: one more selected, and it must be made again
  await rows.nth(4).click({ modifiers: ['Control'] });
  await expect(selectedLine(app)).toHaveText('4 people selected');
  await expect(app.getByRole('region', { name: 'Preview' })).toHaveCount(0);
  await rows.nth(4).click({ modifiers: ['Control'] });
  await expect(selectedLine(app)).toHaveText('3 people selected');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: 'Queue 3 changes' }).click();
  await expect(usersCount(app)).toHaveText(new RegExp(`^${(activeBefore - 3).toLocaleString('en-US')} of`));
  await expect(app.getByRole('region', { name: 'Selected people' })).toHaveCount(0);
  await expect(app.getByRole('status').filter({ hasText: /^Queued 3 changes/ })).toBeFocused();
});

async function figureValue(link: Locator): Promise<number> {
  return Number(((await link.locator('.figure-value').textContent()) ?? '').replace(/,/g, ''));
}

test('every figure on the dashboard opens the list it counts, and that list has exactly that many rows', async ({
  app,
}) => {
  await goTo(app, 'Dashboard');
  const needs = app.getByRole('list', { name: 'Needs attention' });
  await expect(needs.getByRole('link').first()).toBeVisible();
  const figures = await needs.getByRole('link').all();
  expect(figures.length).toBeGreaterThanOrEqual(3);
  const byStatus = await app.getByRole('list', { name: 'Users by status: key' }).getByRole('link').all();
  const openCourseNumbers = () =>
    app.locator('summary', { hasText: 'of overdue training by course' }).click();
  await openCourseNumbers();
  const courses = app.getByRole('table', { name: 'Overdue training by course' }).getByRole('link');
  const checks: { name: string; open: () => Promise<number> }[] = [];
  for (let i = 0; i < figures.length; i++)
    checks.push({
      name: (await figures[i]!.textContent())!,
      open: async () => {
        const l = app.getByRole('list', { name: 'Needs attention' }).getByRole('link').nth(i);
        const v = await figureValue(l);
        await l.click();
        return v;
      },
    });
  for (let i = 0; i < byStatus.length; i++)
    checks.push({
      name: (await byStatus[i]!.textContent())!,
      open: async () => {
        const l = app.getByRole('list', { name: 'Users by status: key' }).getByRole('link').nth(i);
        const v = await figureValue(l);
        await l.click();
        return v;
      },
    });
  const courseCount = Math.min(await courses.count(), 3);
  for (let i = 0; i < courseCount; i++) {
    checks.push({
      name: (await courses.nth(i).textContent())!,
      open: async () => {
        await openCourseNumbers();
        const row = app.getByRole('table', { name: 'Overdue training by course' }).getByRole('row').nth(i);
        const v = Number(((await row.getByRole('cell').textContent()) ?? '').replace(/,/g, ''));
        await row.getByRole('link').click();
        return v;
      },
    });
  }
  for (const check of checks) {
    await goTo(app, 'Dashboard');
    await expect(app.getByRole('list', { name: 'Needs attention' })).toBeVisible();
    const figure = await check.open();
    expect(await listedCount(app), check.name).toBe(figure);
  }
});

/** A credential's view with its expiring holders selected and the bulk panel's preview open. */
async function openSelectionWithPreview(app: Page, server: ReferenceServer): Promise<Locator> {
  const { credentialid, credentialname, held } = credentialExpiringWithin60(server);
  await openHash(app, `#/credentials/${credentialid}`);
  const holders = app.getByRole('region', { name: `Holders: ${credentialname}` });
  await holders.getByLabel('Show').selectOption({ label: 'Expiring within 60 days' });
  await holders.getByRole('button', { name: `Select all ${held.length} matching` }).click();
  await holders.getByLabel(/^Expiration date/).fill(addDaysIso(todayIso(), 365));
  await holders.getByRole('button', { name: 'Preview' }).click();
  await expect(holders.getByRole('region', { name: 'Preview' })).toBeVisible();
  return holders;
}

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no violation with a selection and the bulk panel open, nor on the dashboard (${scheme})`, async ({
    app,
    server,
  }) => {
    await app.emulateMedia({ colorScheme: scheme });
    await openSelectionWithPreview(app, server);
    await expect(app.getByText(/^Loading/)).toHaveCount(0);
    expect(await axeViolations(app)).toEqual([]);
    await goTo(app, 'Dashboard');
    await expect(app.getByRole('list', { name: 'Needs attention' })).toBeVisible();
    await expect(app.getByText(/^Loading/)).toHaveCount(0);
    expect(await axeViolations(app)).toEqual([]);
  });
}

test('at 1024×640 the holders list shows at least 10 rows with the bulk panel open, and no column header is cut', async ({
  app,
  server,
}, testInfo) => {
  for (const [width, height] of [
    [1280, 800],
    [1024, 640],
  ] as const) {
    await app.setViewportSize({ width, height });
    const holders = await openSelectionWithPreview(app, server);
    const grid = holders.getByRole('grid');
    const body = grid.getByRole('rowgroup');
    const rowHeight = await grid
      .getByRole('row')
      .nth(1)
      .evaluate((r) => r.getBoundingClientRect().height);
    expect((await body.evaluate((b) => b.clientHeight)) / rowHeight).toBeGreaterThanOrEqual(10);
    // every header of both grids is shown whole
    for (const header of await app.getByRole('columnheader').all()) {
      expect(
        await header.evaluate((h) => h.scrollWidth <= h.clientWidth),
        (await header.textContent()) ?? '',
      ).toBe(true);
    }
    await app.screenshot({
      path: testInfo.outputPath(`credential-selection-${width}x${height}.png`),
      fullPage: true,
    });
    await goTo(app, 'Dashboard');
    await expect(app.getByRole('list', { name: 'Needs attention' })).toBeVisible();
    await expect(app.getByText(/^Loading/)).toHaveCount(0);
    await app.screenshot({ path: testInfo.outputPath(`dashboard-${width}x${height}.png`), fullPage: true });
    await goTo(app, 'Users');
    await usersGrid(app).getByRole('row').nth(1).click();
    await expect(app.getByLabel('Bulk action')).toBeVisible();
    const usersBody = usersGrid(app).getByRole('rowgroup');
    expect((await usersBody.evaluate((b) => b.clientHeight)) / rowHeight).toBeGreaterThanOrEqual(10);
    await app.screenshot({ path: testInfo.outputPath(`users-selection-${width}x${height}.png`) });
    // the columns of the header row stand over the columns of the rows
    const lefts = (row: Locator, role: 'columnheader' | 'gridcell') =>
      row
        .getByRole(role)
        .evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().left)));
    expect(await lefts(usersGrid(app).getByRole('row').nth(1), 'gridcell')).toEqual(
      await lefts(usersGrid(app).getByRole('row').first(), 'columnheader'),
    );
  }
});

test('a group’s members and its supervisors are lists to select and hand to a bulk action', async ({
  app,
  server,
}) => {
  const group = server.query<{ groupid: number; groupname: string; members: number }>(
    `SELECT g.groupid, g.groupname, COUNT(*) AS members
     FROM profile_groups g JOIN group_members m ON m.groupid = g.groupid
     WHERE g.siteid < 900 GROUP BY g.groupid ORDER BY members DESC, g.groupid LIMIT 1`,
  )[0]!;
  const supervisors = server.query<{ n: number }>(
    'SELECT COUNT(*) AS n FROM group_access WHERE groupid = ?',
    group.groupid,
  )[0]!.n;
  await goTo(app, 'Access');
  await openHash(app, `#/access/group/${group.groupid}`);
  const panel = app.getByRole('region', { name: new RegExp(`^Members of ${group.groupname} \\(`) });
  await panel.getByRole('button', { name: `Select all ${group.members} matching` }).click();
  await expect(panel.getByRole('status').filter({ hasText: /selected/ })).toHaveText(
    `${group.members} people selected`,
  );
  await expect(panel.getByLabel('Bulk action')).toBeVisible();

  // the supervisors: the bulk panel starts on this group's access
  await panel.getByLabel('Show').selectOption('supervisors');
  const supervisorsPanel = app.getByRole('region', {
    name: new RegExp(`^Supervisors of ${group.groupname} \\(`),
  });
  if (supervisors === 0) return;
  await supervisorsPanel.getByRole('button', { name: `Select all ${supervisors} matching` }).click();
  await expect(supervisorsPanel.getByLabel('Bulk action')).toHaveValue('groupAccess');
  await expect(supervisorsPanel.getByLabel('Group access', { exact: true })).toHaveValue(
    String(group.groupid),
  );
});
