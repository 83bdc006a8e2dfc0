/**
 * The Outbox after a day's work, end to end: batches as rows with their counts
 * and state, expanded on demand, actions only where they do something, no
 * horizontal scroll at 1024 px with 100 changes queued; a conflict made through
 * the server's admin API resolved field by field, the merged record checked on
 * the server; axe finds nothing with the Outbox full and the conflict view open.
 */
import type { Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { axeViolations } from './support/axe.ts';
import { IDB_REQUEST } from './support/browser-scripts.ts';
import { addProfile, goTo, syncNow, tabName } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'tiny', admin: true } });

interface DayBatch {
  id: string;
  label?: string;
  statuses: readonly string[];
  /** the change of the batch's i-th op (an import's rows each change their own values) */
  changes: (i: number) => Record<string, string>;
}

/**
 * A day's batches: an import of 48 (45 sent, 1 in conflict, 2 to review), a status change of 40 all sent, 12 renewals
 * refused.
 */
const DAY: readonly DayBatch[] = [
  {
    id: 'import',
    label: 'Import of staff-list-north-plant-2026-final.xlsx',
    statuses: [...Array<string>(45).fill('done'), 'needs-review', 'needs-review', 'conflict'],
    changes: (i) => ({
      firstname: `Renamed${i}`,
      lastname: `Person-With-A-Rather-Long-Double-Barrelled-Name-${i}`,
    }),
  },
  { id: 'status', statuses: Array<string>(40).fill('done'), changes: () => ({ status: 'Inactive' }) },
  {
    id: 'refused',
    statuses: Array<string>(12).fill('needs-review'),
    changes: (i) => ({ employeeid: `00${7123 + i}` }),
  },
];

/** Writes the day's ops straight into the profile's outbox (as the app stores them), on the server's people. */
function queuedDayScript(userids: readonly number[]): string {
  const ops: object[] = [];
  let seq = 0;
  DAY.forEach((batch, b) => {
    batch.statuses.forEach((status, i) => {
      seq += 1;
      const userid = userids[seq % userids.length]!;
      const changes = batch.changes(i);
      ops.push({
        id: `day-${batch.id}-${i}`,
        batchId: `day-${batch.id}`,
        seq,
        targetKey: `user:${userid}`,
        dependsOn: [],
        op: { kind: 'user.update', userid, changes },
        base: Object.fromEntries(Object.keys(changes).map((f) => [f, 'before'])),
        createdAt: new Date(Date.UTC(2026, 10, 20, 8 + b, 0, i)).toISOString(),
        status,
        attempts: status === 'done' ? 1 : 2,
        maybeSent: false,
        nextAttemptAt: null,
        lastError:
          status === 'needs-review'
            ? {
                code: 'rejected',
                message:
                  'The site refused this change: the value is not accepted for this field on this site.',
              }
            : null,
        response: null,
        theirs: status === 'conflict' ? { firstname: 'Someone', lastname: 'Else' } : null,
        conflictFields: status === 'conflict' ? ['firstname'] : undefined,
        summary: `change ${seq}`,
        ...(batch.label ? { batchLabel: batch.label } : {}),
      });
    });
  });
  return `(async () => {
  ${IDB_REQUEST}
  const names = (await indexedDB.databases()).map((d) => d.name || '').filter((n) => n.startsWith('fieldbook-'));
  const db = await request(indexedDB.open(names[0]));
  const tx = db.transaction('outbox', 'readwrite');
  for (const op of ${JSON.stringify(ops)}) tx.objectStore('outbox').put(op);
  await new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onerror = () => reject(tx.error); });
  db.close();
  return ${ops.length};
})()`;
}

async function queueDay(app: Page, server: ReferenceServer): Promise<void> {
  const userids = server
    .query<{ userid: number }>('SELECT userid FROM users WHERE siteid < 900 ORDER BY userid')
    .map((u) => u.userid);
  expect(await app.evaluate(queuedDayScript(userids))).toBe(100);
  await app.reload();
  await goTo(app, 'Outbox');
  // nothing to send: the line says only what waits for the coordinator
  const waiting = app.getByText(/[1-9]\d* in conflict, 14 to review\./);
  await expect(waiting).toBeVisible();
  await expect(waiting).not.toContainText('to send');
}

/** API field names that are no English word, as the API spells them (the renderer's words.ts names them for people). */
const RAW_NAMES = [
  'firstname',
  'lastname',
  'employeeid',
  'usertype',
  'userid',
  'startdate',
  'expirationdate',
  'credentialnumber',
  'duedate',
  'coursestatus',
  'due_date',
  'course_status',
  'assignmentmethod',
];
async function rawNamesShown(app: Page): Promise<string[]> {
  const text = await app.getByRole('main').innerText();
  return RAW_NAMES.filter((f) => new RegExp(`\\b${f}\\b`).test(text));
}

/** The page's and the Outbox's own scroll width against their width: nothing to scroll sideways. */
const WIDTHS = `[document.documentElement, document.querySelector('.outbox-view')].map((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))`;

const batchRow = (app: Page, text: string | RegExp) =>
  app.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: text });

test.beforeEach(async ({ app, api, fullToken }) => {
  await addProfile(app, { name: 'Tiny site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
});

test('a day of 100 changes reads as three batches with their counts, fits 1024 px, and offers only the actions that do something', async ({
  app,
  server,
}) => {
  await app.setViewportSize({ width: 1024, height: 640 });
  await queueDay(app, server);
  for (const widths of await app.evaluate<{ scroll: number; client: number }[]>(WIDTHS))
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);

  const imported = batchRow(app, 'Import of staff-list-north-plant-2026-final.xlsx');
  await expect(imported).toContainText('48 changes: 45 sent, 1 conflict, 2 to review');
  const sent = batchRow(app, /Change status .Inactive. of/);
  await expect(sent).toContainText('40 changes: 40 sent');
  // a batch whose every change is done: nothing to retry or discard, only to undo
  await expect(sent.getByRole('button', { name: /^(Retry|Discard) batch/ })).toHaveCount(0);
  await expect(sent.getByRole('link', { name: /^Undo this batch/ })).toBeVisible();
  // a batch with changes refused: retry and discard; nothing was applied, so nothing to undo
  const refused = batchRow(app, '12 changes: 12 to review');
  await expect(refused.getByRole('button', { name: /^Retry batch/ })).toBeVisible();
  await expect(refused.getByRole('button', { name: /^Discard batch/ })).toBeVisible();
  await expect(refused.getByRole('link', { name: /^Undo this batch/ })).toHaveCount(0);

  // its changes on demand
  await expect(app.getByRole('table', { name: /^Changes of / })).toHaveCount(0);
  await imported.getByRole('button', { name: /^Show 48 changes/ }).click();
  const changes = app.getByRole('table', { name: /^Changes of Import of staff/ });
  await expect(changes.locator('tbody > tr')).toHaveCount(48);
  for (const widths of await app.evaluate<{ scroll: number; client: number }[]>(WIDTHS))
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  await changes
    .getByRole('button', { name: /^Inspect/ })
    .first()
    .click();
  expect(await rawNamesShown(app)).toEqual([]);
  await app.screenshot({ path: 'test-results/outbox-1024.png', fullPage: false });
  await app.setViewportSize({ width: 1280, height: 800 });
  await app.screenshot({ path: 'test-results/outbox-1280.png', fullPage: false });
});

/**
 * A conflict made the way it happens: head office changes the person after the coordinator's sync, before their edit is
 * sent.
 */
async function makeConflict(app: Page, server: ReferenceServer) {
  const user = server.query<{ userid: number; firstname: string; lastname: string }>(
    "SELECT userid, firstname, lastname FROM users WHERE status = 'Active' AND siteid < 900 ORDER BY userid DESC LIMIT 1",
  )[0]!;
  expect(
    server.mutate({
      resource: 'user',
      id: user.userid,
      changes: { firstname: 'Headoffice', status: 'Offline' },
    }),
  ).toBe(true);
  await app.goto(`${app.url().split('#')[0]}#/users/${user.userid}`);
  await app.locator('summary', { hasText: 'Edit this user' }).click();
  const form = app.getByRole('form', { name: 'Edit this user' });
  await form.getByLabel('First name').fill('Mine');
  await form.getByLabel('Last name').fill('Minelast');
  await form.getByLabel('Status').selectOption('Inactive');
  await form.getByRole('button', { name: 'Queue change' }).click();
  await expect(
    app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conflicts (1)' }),
  ).toBeVisible({ timeout: 30_000 });
  await goTo(app, 'Conflicts');
  await expect(app.getByRole('table', { name: 'Values in conflict' })).toBeVisible();
  return user;
}

test('a conflict resolved field by field sends the merged record, and the server holds it', async ({
  app,
  server,
}) => {
  const user = await makeConflict(app, server);
  const values = app.getByRole('table', { name: 'Values in conflict' });
  // the fields in words; the last name, changed by nobody else, is not in conflict
  await expect(values.getByRole('rowheader')).toHaveText(['First name', 'Status']);
  await expect(values.getByRole('row', { name: /^First name/ }).getByRole('cell')).toHaveText([
    user.firstname,
    /Mine$/,
    /Headoffice$/,
  ]);
  await expect(values.getByRole('row', { name: /^Status/ }).getByRole('cell')).toHaveText([
    'Active',
    /Inactive$/,
    /Offline \(never signed in\)$/,
  ]);
  const send = app.getByRole('button', { name: /^Choose yours or the server’s/ });
  await expect(send).toBeDisabled();
  expect(await rawNamesShown(app)).toEqual([]);
  await app.screenshot({ path: 'test-results/conflict-view.png' });

  // "all theirs", then my status after all
  await app.getByRole('button', { name: 'All theirs' }).click();
  await expect(app.getByRole('radio', { name: 'First name: keep the server’s, Headoffice' })).toBeChecked();
  await app.getByRole('radio', { name: 'Status: keep yours, Inactive' }).check();
  await app.getByRole('button', { name: 'Send the merged change' }).click();
  const confirmation = app.getByRole('status').filter({ hasText: 'Queued again' });
  await expect(confirmation).toHaveText(
    /^Queued again: last name “Minelast” and status “Inactive”; kept the server’s first name “Headoffice”/,
  );
  await expect(confirmation).toBeFocused();
  await expect(app.getByText('No conflicts.')).toBeVisible();

  await expect
    .poll(
      () =>
        server.query<{ firstname: string; lastname: string; status: string }>(
          'SELECT firstname, lastname, status FROM users WHERE userid = ?',
          user.userid,
        )[0],
      { timeout: 30_000 },
    )
    .toEqual({ firstname: 'Headoffice', lastname: 'Minelast', status: 'Inactive' });
  await expect(
    app.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: tabName('Conflicts') }),
  ).toHaveText('Conflicts');
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no violation with the Outbox full and the conflict view open (${scheme})`, async ({
    app,
    server,
  }) => {
    await app.emulateMedia({ colorScheme: scheme });
    await makeConflict(app, server);
    expect(await axeViolations(app)).toEqual([]);
    await app.getByRole('button', { name: 'All mine' }).click();
    expect(await axeViolations(app)).toEqual([]);
    await queueDay(app, server);
    await app.getByRole('button', { name: /^Show 48 changes/ }).click();
    await app
      .getByRole('button', { name: /^Inspect/ })
      .first()
      .click();
    expect(await axeViolations(app)).toEqual([]);
    await app.screenshot({ path: `test-results/outbox-full-${scheme}.png` });
  });
}
