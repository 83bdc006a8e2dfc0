import { describe, expect, it } from 'vitest';
import { takeSnapshot } from './admin.ts';
import { generateDataset, type GenerateOptions } from './generate.ts';
import { DATASETS, type DatasetSize } from './datasets.ts';
import { HOSTILE } from './names.ts';
import { Store } from './store.ts';
import { deriveTokens } from './tokens.ts';

const TODAY = '2026-06-15';

function generated(opts: Partial<GenerateOptions> = {}): Store {
  const store = new Store(':memory:');
  generateDataset(store, { dataset: 'tiny', seed: 1, today: TODAY, hostile: false, ...opts });
  return store;
}

const count = (store: Store, sql: string, ...params: string[]): number =>
  store.get<{ n: number }>(`SELECT count(*) AS n FROM ${sql}`, ...params)!.n;

/** xl with every total divided by `by` (xl itself is never generated in a test: about 7.6 million rows). */
function scaledXl(by: number): DatasetSize {
  const xl = DATASETS.xl;
  const d = (n: number) => Math.round(n / by);
  return {
    ...xl,
    users: d(xl.users),
    credentials: d(xl.credentials),
    credentialAssignments: d(xl.credentialAssignments),
    courses: d(xl.courses),
    trainingAssignments: d(xl.trainingAssignments),
  };
}

describe('the dataset generator', () => {
  it('makes xl (scaled down) with 40 sites of the same size, each named once, the same for the same seed', () => {
    const size = scaledXl(500);
    const [a, b] = [generated({ dataset: 'xl', size }), generated({ dataset: 'xl', size })];
    expect(takeSnapshot(a)).toEqual(takeSnapshot(b));
    const sites = a.all<{ sitename: string; people: number }>(
      'SELECT s.sitename, (SELECT count(*) FROM users u WHERE u.siteid = s.siteid) AS people FROM sites s WHERE s.customerid = 1',
    );
    expect(sites).toHaveLength(40);
    expect(new Set(sites.map((s) => s.sitename)).size).toBe(40);
    expect(new Set(sites.map((s) => s.people))).toEqual(new Set([size.users / 40]));
    expect(count(a, 'users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = 1')).toBe(size.users);
  });

  it('gives the same data for the same seed', () => {
    const [a, b] = [generated(), generated()];
    expect(takeSnapshot(a)).toEqual(takeSnapshot(b));
    expect(a.all('SELECT * FROM credentials ORDER BY credentialid')).toEqual(
      b.all('SELECT * FROM credentials ORDER BY credentialid'),
    );
  });

  it('gives different data for another seed', () => {
    expect(takeSnapshot(generated({ seed: 2 })).users).not.toEqual(takeSnapshot(generated()).users);
  });

  it('makes demo about 300 users on 2 sites of our customer, plus the other customer’s small site', () => {
    const store = generated({ dataset: 'demo' });
    expect(store.all('SELECT siteid FROM sites WHERE customerid = 1 ORDER BY siteid')).toEqual([
      { siteid: 101 },
      { siteid: 102 },
    ]);
    expect(count(store, 'users u JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = 1')).toBe(300);
    expect(count(store, 'sites WHERE customerid = 2')).toBe(1);
  });

  it('uses every user status, supervisors and administrators', () => {
    const store = generated({ dataset: 'demo' });
    const statuses = store
      .all<{ status: string }>('SELECT DISTINCT status FROM users ORDER BY status')
      .map((r) => r.status);
    expect(statuses).toEqual(['Active', 'Expired', 'Inactive', 'Offline']);
    const types = store
      .all<{ usertype: string }>('SELECT DISTINCT usertype FROM users ORDER BY usertype')
      .map((r) => r.usertype);
    expect(types).toEqual(['Administrator', 'Supervisor', 'User']);
    // only people with access are supervisors
    expect(
      count(
        store,
        "users WHERE usertype = 'Supervisor' AND userid NOT IN (SELECT userid FROM group_access) AND userid NOT IN (SELECT userid FROM module_access)",
      ),
    ).toBe(0);
  });

  it('spreads expirations around today: expired, expiring within 90 days, later, and unset', () => {
    const store = generated({ dataset: 'demo' });
    const soon = '2026-09-13';
    expect(
      count(store, "credential_assignments WHERE expirationdate <> '' AND expirationdate < ?", TODAY),
    ).toBeGreaterThan(0);
    expect(
      count(store, 'credential_assignments WHERE expirationdate BETWEEN ? AND ?', TODAY, soon),
    ).toBeGreaterThan(0);
    expect(count(store, 'credential_assignments WHERE expirationdate > ?', soon)).toBeGreaterThan(0);
    expect(count(store, "credential_assignments WHERE expirationdate = ''")).toBeGreaterThan(0);
  });

  it('spreads training due dates (overdue, due soon, later) and uses every course status', () => {
    const store = generated({ dataset: 'demo' });
    expect(
      count(store, "training_assignments WHERE due_date < ? AND course_status = 'active'", TODAY),
    ).toBeGreaterThan(0);
    expect(
      count(store, 'training_assignments WHERE due_date BETWEEN ? AND ?', TODAY, '2026-07-15'),
    ).toBeGreaterThan(0);
    expect(count(store, 'training_assignments WHERE due_date > ?', '2026-07-15')).toBeGreaterThan(0);
    expect(store.all('SELECT DISTINCT course_status FROM training_assignments ORDER BY 1')).toEqual([
      { course_status: 'active' },
      { course_status: 'completed' },
      { course_status: 'inactive' },
    ]);
  });

  it('varies which credential fields are required', () => {
    const store = generated({ dataset: 'demo' });
    for (const flag of ['requiredstartdate', 'requiredexpirationdate', 'requiredcredentialnum']) {
      expect(store.all(`SELECT DISTINCT ${flag} AS f FROM credentials ORDER BY 1`)).toEqual([
        { f: 0 },
        { f: 1 },
      ]);
    }
  });

  it('seeds hostile values in a handful of records only when asked', () => {
    const hostile = generated({ hostile: true });
    expect(count(hostile, 'users WHERE firstname = ?', HOSTILE.script)).toBe(1);
    expect(count(hostile, 'users WHERE lastname = ?', HOSTILE.long)).toBe(1);
    expect(count(hostile, 'users WHERE firstname = ?', HOSTILE.rtlOverride)).toBe(1);
    expect(count(hostile, 'sites WHERE loginpage = ?', HOSTILE.javascriptUrl)).toBe(1);
    expect(count(hostile, 'credentials WHERE description = ?', HOSTILE.dataUrl)).toBe(1);
    expect(count(hostile, "credential_assignments WHERE notes LIKE '%<svg%'")).toBeGreaterThan(0);
    expect(count(generated(), "users WHERE firstname LIKE '%<%'")).toBe(0);
  });
});

describe('tokens', () => {
  it('derive from the dataset and seed', () => {
    expect(deriveTokens('demo', 1)).toEqual(deriveTokens('demo', 1));
    expect(deriveTokens('demo', 1)[0]!.token).not.toBe(deriveTokens('demo', 2)[0]!.token);
    expect(deriveTokens('demo', 1)[0]!.token).not.toBe(deriveTokens('tiny', 1)[0]!.token);
    expect(deriveTokens('demo', 1).map((t) => t.access)).toEqual([
      'full',
      'readonly',
      'feature',
      'other-customer',
    ]);
  });
});
