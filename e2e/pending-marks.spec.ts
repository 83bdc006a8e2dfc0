/**
 * A change waiting in the Outbox is seen in every list, as a state one reads: the mark's own
 * rendered text, whole (not cut to "…") and inside the window, at 1024×640 and 1280×800, in
 * Users (someone whose only change is an e-mail, a renewal or a course), a credential's
 * holders, a person's training, a group's members and a person's page. The dashboard says
 * how many changes not sent yet its figures include, and shows them without on request.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile, goTo } from './support/ui.ts';
import { addDaysIso, todayIso } from '../src/shared/dates.ts';

type Person = { userid: number; username: string; firstname: string; lastname: string };

/**
 * Three people of one site: one in a group (gets an e-mail), one holding a credential (renewed), one assigned a course
 * (new due date).
 */
function people(server: ReferenceServer) {
  const person = (sql: string, ...args: number[]) =>
    server.query<Person & { id: number; name: string }>(sql, ...args)[0]!;
  const member = person(
    `SELECT u.userid, u.username, u.firstname, u.lastname, g.groupid AS id, g.groupname AS name
     FROM users u JOIN group_members m ON m.userid = u.userid
     JOIN profile_groups g ON g.groupid = m.groupid WHERE u.siteid < 900 ORDER BY u.userid LIMIT 1`,
  );
  const holder = person(
    `SELECT u.userid, u.username, u.firstname, u.lastname, c.credentialid AS id, c.credentialname AS name FROM users u
     JOIN credential_assignments a ON a.userid = u.userid JOIN credentials c ON c.credentialid = a.credentialid
     WHERE u.siteid < 900 AND u.userid <> ? AND c.requiredcredentialnum = 0 ORDER BY u.userid LIMIT 1`,
    member.userid,
  );
  const trainee = person(
    `SELECT u.userid, u.username, u.firstname, u.lastname, c.courseid AS id, c.coursename AS name FROM users u
     JOIN training_assignments t ON t.userid = u.userid JOIN courses c ON c.courseid = t.courseid
     WHERE u.siteid < 900 AND u.userid NOT IN (?, ?) AND lower(t.course_status) NOT LIKE 'complete%' ORDER BY u.userid LIMIT 1`,
    member.userid,
    holder.userid,
  );
  return { member, holder, trainee };
}

/** Selects one person in Users and queues one bulk action for them. */
async function queueFor(app: Page, person: Person, action: string, fill: () => Promise<void>): Promise<void> {
  await goTo(app, 'Users');
  await app.getByLabel('Search users').fill(person.username);
  await app.getByRole('button', { name: 'Select all 1 matching' }).click();
  await app.getByLabel('Bulk action').selectOption({ label: action });
  await fill();
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: 'Queue 1 change' }).click();
}

/** How the mark is rendered: its text, and whether it is whole and inside every box that clips it and the window. */
async function markBox(
  mark: Locator,
): Promise<{ text: string; whole: boolean; unclipped: boolean; inWindow: boolean }> {
  // runs in the page (this file is type-checked without the DOM library)
  type Box = { left: number; right: number; width: number };
  type El = {
    textContent: string | null;
    scrollWidth: number;
    clientWidth: number;
    scrollLeft: number;
    parentElement: El | null;
    getBoundingClientRect(): Box;
  };
  return mark.evaluate((node) => {
    const el = node as unknown as El;
    const view = globalThis as unknown as {
      innerWidth: number;
      getComputedStyle(e: El): { overflowX: string };
    };
    const box = el.getBoundingClientRect();
    let unclipped = true;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const overflow = view.getComputedStyle(up).overflowX;
      if (overflow === 'visible') continue;
      const clip = up.getBoundingClientRect();
      if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5) unclipped = false;
      // a box the coordinator cannot scroll (a cell) shows its start: scrolled sideways, it hides what the mark pushed
      // out
      if ((overflow === 'hidden' || overflow === 'clip') && up.scrollLeft !== 0) unclipped = false;
    }
    return {
      text: el.textContent ?? '',
      whole: el.scrollWidth <= el.clientWidth,
      unclipped,
      inWindow: box.left >= 0 && box.right <= view.innerWidth && box.width > 0,
    };
  });
}

async function expectReadableMark(
  app: Page,
  where: Locator,
  what: string,
  shot: string,
  text = 'Pending change',
): Promise<void> {
  // the row first: a failure then says whether the row or its mark was missing
  await expect(where, `${what}: the row`).toBeVisible();
  const mark = where.getByText(/^Pending (change|addition|removal)$/);
  await expect(mark, what).toBeVisible();
  // the row, not the mark: scrolling to the mark would scroll the very cell that cuts it
  await where.scrollIntoViewIfNeeded();
  await app.screenshot({ path: `test-results/pending-marks/${shot}.png` });
  expect(await markBox(mark), what).toEqual({ text, whole: true, unclipped: true, inWindow: true });
}

const rowOf = (grid: Locator, person: Person) =>
  grid.getByRole('row').filter({ hasText: `${person.lastname}, ${person.firstname}` });

test.use({ serverOptions: { dataset: 'tiny', admin: true } });

test('a change not sent yet of every kind is marked, whole and readable, in every list at 1024×640 and 1280×800, and the dashboard counts it', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(240_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  const { member, holder, trainee } = people(server);
  const base = app.url().split('#')[0];
  await app.getByRole('banner').getByRole('switch', { name: 'Work offline' }).check();

  // an e-mail from HR's file, a renewal, a course's new due date: each person's only change
  await goTo(app, 'Import');
  await app.getByLabel('choose a file').setInputFiles({
    name: 'hr.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`Username,E-mail\n${member.username},pending.mark@example.test\n`),
  });
  await app.getByRole('button', { name: 'Queue 1 row' }).click();
  await queueFor(app, holder, 'Renew a credential', async () => {
    await app.getByRole('combobox', { name: 'Renew a credential' }).selectOption(String(holder.id));
    await app.getByLabel(/^Expiration date/).fill(addDaysIso(todayIso(), 700));
  });
  await queueFor(app, trainee, 'Assign training', async () => {
    await app.getByRole('combobox', { name: 'Assign training' }).selectOption(String(trainee.id));
    await app.getByLabel('Due date').fill(addDaysIso(todayIso(), 90));
  });
  await expect(
    app.getByRole('banner').getByRole('status', { name: 'Connection: Working offline — 3 changes waiting' }),
  ).toBeVisible();

  for (const [width, height] of [
    [1024, 640],
    [1280, 800],
  ] as const) {
    await app.setViewportSize({ width, height });
    for (const person of [member, holder, trainee]) {
      await goTo(app, 'Users');
      await app.getByLabel('Search users').fill(person.username);
      await expectReadableMark(
        app,
        rowOf(app.getByRole('grid', { name: 'Users' }), person),
        `Users, ${person.username} at ${width}`,
        `users-${person.username}-${width}`,
      );
    }
    await app.goto(`${base}#/credentials/${holder.id}`);
    await expectReadableMark(
      app,
      rowOf(app.getByRole('grid', { name: `Holders of ${holder.name}` }), holder),
      `holders at ${width}`,
      `holders-${width}`,
    );
    await app.goto(`${base}#/training/user/${trainee.userid}`);
    await expectReadableMark(
      app,
      app
        .getByRole('grid', { name: 'Training of the user' })
        .getByRole('row')
        .filter({ hasText: trainee.name }),
      `training at ${width}`,
      `training-${width}`,
    );
    await app.goto(`${base}#/access/group/${member.id}`);
    await expectReadableMark(
      app,
      rowOf(app.getByRole('grid', { name: `Members of ${member.name}` }), member),
      `group members at ${width}`,
      `group-${width}`,
    );
    await app.goto(`${base}#/users/${member.userid}`);
    await expectReadableMark(
      app,
      app.getByRole('listitem').filter({ hasText: 'pending.mark@example.test' }),
      `person's page at ${width}`,
      `person-${width}`,
      'Pending addition',
    );
  }

  // the dashboard's figures include the renewal and the course (an e-mail is in none of them), said beside the
  // header's 3 waiting, and can leave them out (all 3: the platform holds none of them)
  await goTo(app, 'Dashboard');
  const note = app.getByRole('note', { name: 'Changes not sent yet' });
  await expect(note).toContainText(
    'These figures include 2 of the 3 changes not sent yet; the other one does not change them.',
  );
  await note.getByLabel('Show the figures as the platform holds them').check();
  await expect(note).toContainText(
    'These figures are as the platform holds them, without the 3 changes not sent yet',
  );
  await app.screenshot({ path: 'test-results/pending-marks/dashboard-1280.png' });
});
