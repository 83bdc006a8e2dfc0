/**
 * Undo after apply, end to end: a bulk status change is applied, one of its
 * people is changed behind the client's back through the admin API, and the
 * undo, checked as its view opens and said in its own direction ("status
 * Inactive → Active"), puts everyone else back while showing that one as a
 * conflict (before / after the batch / now), left as it is.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';

const changes = (n: number) => (n === 1 ? '1 change' : `${n} changes`);

test('a bulk status change applied, then undone: the record changed behind the client’s back is a conflict, not reverted', async ({
  app,
  api,
  server,
  fullToken,
}) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const group = server.query<{ groupid: number; groupname: string; n: number }>(
    `SELECT g.groupid, g.groupname, COUNT(*) AS n
     FROM group_members m JOIN users u ON u.userid = m.userid JOIN profile_groups g ON g.groupid = m.groupid
     WHERE u.status = 'Active' GROUP BY g.groupid HAVING n BETWEEN 2 AND 8 ORDER BY g.groupid LIMIT 1`,
  )[0]!;
  const members = server
    .query<{ userid: number }>(
      "SELECT u.userid FROM group_members m JOIN users u ON u.userid = m.userid WHERE m.groupid = ? AND u.status = 'Active' ORDER BY u.userid",
      group.groupid,
    )
    .map((m) => m.userid);
  const nameOf = (userid: number) => {
    const u = server.query<{ firstname: string; lastname: string }>(
      'SELECT firstname, lastname FROM users WHERE userid = ?',
      userid,
    )[0]!;
    return `${u.firstname} ${u.lastname}`;
  };
  const statusOf = () =>
    server.query<{ userid: number; status: string }>(
      `SELECT userid, status FROM users WHERE userid IN (${members.join(',')}) ORDER BY userid`,
    );

  // the batch: every active member of the group set Inactive, and applied
  await goTo(app, 'Users');
  await app.getByLabel('Profile group').selectOption(String(group.groupid));
  await app.getByRole('combobox', { name: 'Status', exact: true }).selectOption('Active');
  await app.getByRole('button', { name: `Select all ${members.length} matching` }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: `Queue ${members.length} changes` }).click();
  await expect
    .poll(statusOf, { timeout: 30_000 })
    .toEqual(members.map((userid) => ({ userid, status: 'Inactive' })));

  // behind the client's back, after the batch was applied
  const [changed, ...others] = members;
  expect(server.mutate({ resource: 'user', id: changed!, changes: { status: 'Offline' } })).toBe(true);

  await goTo(app, 'Outbox');
  const batches = app.getByRole('table', { name: 'Batches' });
  await expect(batches.getByText(`${changes(members.length)}: ${members.length} sent`)).toBeVisible({
    timeout: 30_000,
  });
  await batches.getByRole('link', { name: /^Undo this batch/ }).click();
  await expect(app.getByRole('heading', { name: 'Undo a batch' })).toBeVisible();

  // the records are checked as the view opens
  const summary = app.getByRole('status').filter({ hasText: 'Checked with the platform' });
  await expect(summary).toContainText(
    `${others.length} to revert, 1 changed since (not reverted unless you choose).`,
  );
  const preview = app.getByRole('table', { name: 'Undo preview' });
  const conflict = preview.getByRole('row').filter({ hasText: 'Changed since the batch was applied' });
  await expect(conflict).toHaveCount(1);
  await expect(conflict.getByRole('list', { name: 'Before / after the batch / now' })).toHaveText(
    'Status: before Active, after the batch Inactive, now Offline (never signed in)',
  );
  await expect(preview.getByText('Will be put back')).toHaveCount(others.length);
  // each line says what the undo will do, in the undo's direction
  const reverted = nameOf(others[0]!);
  await expect(
    preview.getByRole('row').filter({ hasText: `Change status "Inactive" of ${reverted}` }),
  ).toContainText(`${reverted}: status Inactive → Active`);

  await app.screenshot({ path: 'test-results/undo-view.png', fullPage: true });
  await app.getByRole('button', { name: `Queue the undo (${changes(others.length)})` }).click();
  const confirmation = app.getByText(
    `The undo is queued (${changes(others.length)}) as a batch linked to this one.`,
  );
  await expect(confirmation).toBeVisible();
  await expect(confirmation).toBeFocused();
  await expect(app.getByRole('button', { name: `Undo queued (${changes(others.length)})` })).toBeDisabled();
  await expect
    .poll(statusOf, { timeout: 30_000 })
    .toEqual(members.map((userid) => ({ userid, status: userid === changed ? 'Offline' : 'Active' })));

  // the undo is a batch of the outbox like any other, sent and logged
  await goTo(app, 'Outbox');
  await expect(
    batches.getByRole('row').filter({ hasText: /^.*Undo: Change status "Active" of/ }),
  ).toContainText(`${changes(others.length)}: ${others.length} sent`, { timeout: 30_000 });
});
