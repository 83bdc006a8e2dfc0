/**
 * The users list on opening the app: its first screenful is read from the
 * cache before anything that walks every person (the count, the filters'
 * choices). On a cache of 200,000 people those took IndexedDB 0.4 and 0.5 s,
 * and the first rows waited behind them (docs/benchmarks.md, scale).
 */
import { expect, test } from './fixtures.ts';
import { addProfile, syncNow, usersGrid } from './support/ui.ts';

test.use({ serverOptions: { dataset: 'demo' } });

/** Notes, in order, the page's IndexedDB reads of the users table as asked ("users.count") and as answered ("answered users.count"). */
const RECORD_USERS_READS = `(() => {
  const asked = (window.__usersReads = []);
  const wrap = (proto, label) => {
    for (const name of ['get', 'getAll', 'getAllKeys', 'count', 'openCursor', 'openKeyCursor']) {
      const original = proto[name];
      proto[name] = function (...args) {
        const what = label(this) + '.' + name;
        const request = original.apply(this, args);
        if (what.startsWith('users')) {
          asked.push(what);
          request.addEventListener('success', () => asked.push('answered ' + what), { once: true });
        }
        return request;
      };
    }
  };
  wrap(IDBObjectStore.prototype, (s) => s.name);
  wrap(IDBIndex.prototype, (i) => i.objectStore.name + '[' + i.name + ']');
})();`;

test('opening the app on the users list reads its first screenful before counting everyone or listing the filters’ choices', async ({ app, api, fullToken }) => {
  await addProfile(app, { name: 'Demo site', baseUrl: api.baseUrl, token: fullToken });
  await syncNow(app);
  await app.addInitScript(RECORD_USERS_READS);
  await app.goto(`${app.url().split('#')[0]}#/users`);
  // a new page load, as when the app is opened again (the hash alone changes no document)
  await app.reload();
  await expect(usersGrid(app).getByRole('row').nth(1)).toBeVisible();
  await expect(app.getByRole('status').filter({ hasText: / users$/ })).toBeVisible();
  const reads = await app.evaluate<string[]>('window.__usersReads');
  // the first screenful's read answered before any walk over everyone is even asked
  const first = reads.indexOf('answered users[sortName].getAll');
  expect(first, reads.join(', ')).toBeGreaterThanOrEqual(0);
  for (const walk of ['users.count', 'users[status].openKeyCursor', 'users[usertype].openKeyCursor']) {
    expect(reads.indexOf(walk), `${walk} in ${reads.join(', ')}`).toBeGreaterThan(first);
  }
});
