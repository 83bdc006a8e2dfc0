/**
 * Undo after apply, end to end: a bulk status change is applied, one of its
 * people is changed behind the client's back through the admin API, and the
 * undo puts everyone else back while showing that one as a conflict (base /
 * applied / now), left as it is.
 */
import { expect, test } from './fixtures.ts';
import { addProfile, goTo, syncNow } from './support/ui.ts';

test('a bulk status change applied, then undone: the record changed behind the client’s back is a conflict, not reverted', async ({ app, api, server, fullToken }) => {
  test.setTimeout(120_000);
  await addProfile(app, { name: 'Riverside site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  const group = server.query<{ groupid: number; groupname: string; n: number }>(
    `SELECT g.groupid, g.groupname, COUNT(*) AS n FROM group_members m JOIN users u ON u.userid = m.userid JOIN profile_groups g ON g.groupid = m.groupid
     WHERE u.status = 'Active' GROUP BY g.groupid HAVING n BETWEEN 2 AND 8 ORDER BY g.groupid LIMIT 1`,
  )[0]!;
  const members = server.query<{ userid: number }>(
    "SELECT u.userid FROM group_members m JOIN users u ON u.userid = m.userid WHERE m.groupid = ? AND u.status = 'Active' ORDER BY u.userid",
    group.groupid,
  ).map((m) => m.userid);
  const statusOf = () => server.query<{ userid: number; status: string }>(`SELECT userid, status FROM users WHERE userid IN (${members.join(',')}) ORDER BY userid`);

  // the batch: every active member of the group set Inactive, and applied
  await goTo(app, 'Users');
  await app.getByLabel('Profile group').selectOption({ label: group.groupname });
  await app.getByRole('combobox', { name: 'Status', exact: true }).selectOption('Active');
  await app.getByRole('button', { name: `Select all ${members.length} matching` }).click();
  await app.getByLabel('Bulk action').selectOption({ label: 'Change status' });
  await app.getByLabel('New status').selectOption('Inactive');
  await app.getByRole('button', { name: 'Preview' }).click();
  await app.getByRole('button', { name: `Queue ${members.length} changes` }).click();
  await expect.poll(statusOf, { timeout: 30_000 }).toEqual(members.map((userid) => ({ userid, status: 'Inactive' })));

  // behind the client's back, after the batch was applied
  const [changed, ...others] = members;
  expect(server.mutate({ resource: 'user', id: changed!, changes: { status: 'Offline' } })).toBe(true);

  await goTo(app, 'Outbox');
  const queued = app.getByRole('table', { name: 'Queued operations' });
  await expect(queued.getByText('Done')).toHaveCount(members.length, { timeout: 30_000 });
  await app.getByLabel('Batch').selectOption({ index: 1 });
  await app.getByRole('link', { name: 'Undo this batch…' }).click();
  await expect(app.getByRole('heading', { name: 'Undo a batch' })).toBeVisible();
  await app.getByRole('button', { name: 'Check the records against the server' }).click();

  const summary = app.getByRole('status').filter({ hasText: 'Checked against the server' });
  await expect(summary).toContainText(`${others.length} to revert, 0 already as before, 1 changed since (not reverted unless you choose), 0 the API cannot reverse, 0 never applied.`);
  const preview = app.getByRole('table', { name: 'Undo preview' });
  const conflict = preview.getByRole('row').filter({ hasText: 'Changed since the batch was applied' });
  await expect(conflict).toHaveCount(1);
  await expect(conflict.getByRole('list', { name: 'Base / applied / now' })).toHaveText('status: base Active / applied Inactive / now Offline');
  await expect(preview.getByText('Will be put back')).toHaveCount(others.length);

  await app.getByRole('button', { name: `Queue the undo (${others.length} changes)` }).click();
  await expect(app.getByText(`The undo is queued (${others.length} changes) as a batch linked to this one.`)).toBeVisible();
  await expect
    .poll(statusOf, { timeout: 30_000 })
    .toEqual(members.map((userid) => ({ userid, status: userid === changed ? 'Offline' : 'Active' })));

  // the undo is a batch of the outbox like any other, sent and logged
  await goTo(app, 'Outbox');
  await expect(queued.getByText('Done')).toHaveCount(members.length + others.length, { timeout: 30_000 });
  await expect(queued.getByText(/^Undo: /)).toHaveCount(others.length);
});
