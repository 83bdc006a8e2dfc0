/**
 * The coordinator's renewal on site, offline: from a credential's "Expiring within 30
 * days" list, five people whose new cards they checked are renewed with the new dates
 * and each card's own number, pasted as a column. Back online, the reference server's
 * own rows hold the five numbers and dates. The demo dataset; every expected value is
 * read from the server or the view.
 */
import type { Page } from '@playwright/test';
import { expect, test, type ReferenceServer } from './fixtures.ts';
import { addProfile } from './support/ui.ts';
import { addDaysIso, toIsoDate, todayIso } from '../src/shared/dates.ts';

test.use({ serverOptions: { dataset: 'demo', admin: true } });

type Expiring = { credentialid: number; credentialname: string; userid: number };

/** The credential with the most holders (of the sites the token reaches) expiring from today through 30 days. */
function credentialExpiringWithin30(server: ReferenceServer): {
  credentialid: number;
  credentialname: string;
  holders: number;
} {
  const today = todayIso();
  const rows = server
    .query<Expiring & { expirationdate: string }>(
      `SELECT a.credentialid, c.credentialname, a.userid, a.expirationdate FROM credential_assignments a
     JOIN users u ON u.userid = a.userid JOIN credentials c ON c.credentialid = a.credentialid WHERE u.siteid < 900`,
    )
    .filter((a) => {
      const iso = toIsoDate(a.expirationdate);
      return iso >= today && iso <= addDaysIso(today, 30);
    });
  const counts = new Map<number, Expiring[]>();
  for (const a of rows) counts.set(a.credentialid, [...(counts.get(a.credentialid) ?? []), a]);
  const [credentialid, held] = [...counts.entries()].sort(
    ([a, x], [b, y]) => y.length - x.length || a - b,
  )[0]!;
  return { credentialid, credentialname: held[0]!.credentialname, holders: held.length };
}

const header = (app: Page) => app.getByRole('banner');

test('five renewals from a credential’s expiring list, each with its own pasted number, are queued offline and the server then holds the five numbers and dates', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(300_000);
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  const { credentialid, credentialname, holders: expiring } = credentialExpiringWithin30(server);
  expect(expiring, 'a credential with five holders expiring within 30 days').toBeGreaterThanOrEqual(5);
  await header(app).getByRole('switch', { name: 'Work offline' }).check();

  await app.goto(`${app.url().split('#')[0]}#/credentials/${credentialid}`);
  const list = app.getByRole('region', { name: `Holders: ${credentialname}` });
  await list.getByLabel('Show').selectOption({ label: 'Expiring within 30 days' });
  await expect(list.getByRole('status').filter({ hasText: / holders?$/ })).toHaveText(`${expiring} holders`);
  const rows = list.getByRole('grid').getByRole('row');
  await rows.nth(1).getByRole('gridcell').last().click();
  await rows
    .nth(5)
    .getByRole('gridcell')
    .last()
    .click({ modifiers: ['Shift'] });
  await expect(list.getByRole('status').filter({ hasText: /selected/ })).toHaveText('5 people selected');

  // the list's bulk panel starts on renewing this credential
  await expect(list.getByLabel('Bulk action')).toHaveValue('renew');
  await expect(list.getByRole('combobox', { name: 'Renew a credential' })).toHaveValue(String(credentialid));
  // dates left empty: named as missing, not "5 people need no change"
  await list.getByRole('button', { name: 'Preview' }).click();
  const preview = list.getByRole('region', { name: 'Preview' });
  await expect(preview.getByRole('alert')).toHaveText('Enter the new expiration date.');
  await expect(preview).not.toContainText('no change');
  await app.screenshot({ path: 'test-results/renewals/dates-missing.png' });

  const start = todayIso();
  const expires = addDaysIso(start, 730);
  await list.getByLabel('Start date').fill(start);
  await list.getByLabel(/^Expiration date/).fill(expires);
  await list.getByRole('button', { name: 'Preview' }).click();
  const numbers = ['RN-2041', 'RN-2042', 'RN-2043', 'RN-2044', 'RN-2045'];
  await preview
    .getByLabel('Paste a column of numbers, one per person in the order shown')
    .fill(`${numbers.join('\r\n')}\r\n`);
  await expect(preview.getByRole('status')).toHaveText('5 numbers filled in, one per person.');
  const table = preview.getByRole('table', { name: 'New numbers' });
  const people = await table.getByRole('rowheader').allTextContents();
  expect(people).toHaveLength(5);
  for (const [i, person] of people.entries())
    await expect(table.getByLabel(`New number for ${person}`)).toHaveValue(numbers[i]!);
  await expect(preview).toContainText('5 changes to queue');
  await preview.scrollIntoViewIfNeeded();
  await app.screenshot({ path: 'test-results/renewals/preview.png', fullPage: true });
  await preview.getByRole('button', { name: 'Queue 5 changes' }).click();
  await expect(
    header(app).getByRole('status', { name: 'Connection: Working offline — 5 changes waiting' }),
  ).toBeVisible();

  // back online: the queue replays by itself, and the platform's own rows hold each person's number and the dates
  await header(app).getByRole('switch', { name: 'Work offline' }).uncheck();
  type Row = {
    firstname: string;
    lastname: string;
    credentialnumber: string;
    startdate: string;
    expirationdate: string;
  };
  const onServer = () =>
    server
      .query<Row>(
        `SELECT u.firstname, u.lastname, a.credentialnumber, a.startdate, a.expirationdate
     FROM credential_assignments a JOIN users u ON u.userid = a.userid
     WHERE a.credentialid = ? AND a.credentialnumber LIKE 'RN-20%' ORDER BY a.credentialnumber`,
        credentialid,
      )
      .map((r) => [
        `${r.firstname} ${r.lastname}`,
        r.credentialnumber,
        toIsoDate(r.startdate),
        toIsoDate(r.expirationdate),
      ]);
  await expect
    .poll(onServer, { timeout: 60_000 })
    .toEqual(people.map((person, i) => [person, numbers[i], start, expires]));
});
