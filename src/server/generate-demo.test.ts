/**
 * The demo is a site a coordinator recognises: most people compliant, a few
 * with something expired or missing, some renewals coming, a minority of
 * training overdue. The other datasets keep their bytes (benchmarks compare runs).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateDataset } from './generate.ts';
import { Store } from './store.ts';

const TODAY = '2026-06-15';
const plus = (days: number): string =>
  new Date(Date.parse(`${TODAY}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

function demo(): Store {
  const store = new Store(':memory:');
  generateDataset(store, { dataset: 'demo', seed: 1, today: TODAY, hostile: false });
  return store;
}

const OURS = 'userid IN (SELECT userid FROM users WHERE siteid < 900)';
const peopleWhere = (store: Store, where: string, ...params: string[]): Set<number> =>
  new Set(
    store
      .all<{ userid: number }>(`SELECT DISTINCT userid FROM ${where} AND ${OURS}`, ...params)
      .map((r) => r.userid),
  );

/** People lacking a credential that someone else at their site holds (as the report counts "Missing"). */
function lackingOne(store: Store): Set<number> {
  return peopleWhere(
    store,
    `users u WHERE EXISTS (
    SELECT 1 FROM credential_assignments a JOIN users o ON o.userid = a.userid AND o.siteid = u.siteid
    WHERE NOT EXISTS (
      SELECT 1 FROM credential_assignments m WHERE m.userid = u.userid AND m.credentialid = a.credentialid
    ))`,
  );
}

describe('the demo site', () => {
  const store = demo();
  const people = store.get<{ n: number }>(`SELECT count(*) AS n FROM users WHERE ${OURS}`)!.n;
  const expired = peopleWhere(
    store,
    "credential_assignments WHERE expirationdate <> '' AND expirationdate < ?",
    TODAY,
  );
  const undated = peopleWhere(
    store,
    "credential_assignments a JOIN credentials c USING (credentialid) WHERE c.requiredexpirationdate = 1 AND a.expirationdate = ''",
  );
  const overdue = peopleWhere(
    store,
    "training_assignments WHERE course_status <> 'completed' AND due_date < ?",
    TODAY,
  );
  const lacking = lackingOne(store);

  it('has most people with nothing expired, missing or overdue', () => {
    const flagged = new Set([...expired, ...undated, ...overdue, ...lacking]);
    expect(flagged.size / people).toBeLessThan(0.35);
  });

  it('has a few percent of people holding an expired credential', () => {
    expect(expired.size / people).toBeGreaterThan(0.01);
    expect(expired.size / people).toBeLessThan(0.08);
  });

  it('has a handful of people missing a credential or a required date', () => {
    for (const few of [lacking, undated]) {
      expect(few.size).toBeGreaterThan(0);
      expect(few.size / people).toBeLessThan(0.05);
    }
  });

  it('has some credentials expiring within 30, 60 and 90 days, not a flood', () => {
    const all = store.get<{ n: number }>(`SELECT count(*) AS n FROM credential_assignments WHERE ${OURS}`)!.n;
    for (const [from, to] of [
      [0, 30],
      [31, 60],
      [61, 90],
    ] as const) {
      const n = store.get<{ n: number }>(
        `SELECT count(*) AS n FROM credential_assignments WHERE expirationdate BETWEEN ? AND ? AND ${OURS}`,
        plus(from),
        plus(to),
      )!.n;
      expect(n).toBeGreaterThan(0);
      expect(n / all).toBeLessThan(0.06);
    }
  });

  it('has a minority of open training overdue, and more than half of all training done', () => {
    const rows = store.all<{ done: number; open: number; late: number }>(
      `SELECT sum(course_status = 'completed') AS done,
      sum(course_status <> 'completed') AS open, sum(course_status <> 'completed' AND due_date < ?) AS late
      FROM training_assignments WHERE ${OURS}`,
      TODAY,
    )[0]!;
    expect(rows.late / rows.open).toBeGreaterThan(0.02);
    expect(rows.late / rows.open).toBeLessThan(0.1);
    expect(rows.done / (rows.done + rows.open)).toBeGreaterThan(0.5);
  });
});

describe('the other datasets', () => {
  it('keep their exact rows (benchmarks compare runs of the same data)', () => {
    const store = new Store(':memory:');
    generateDataset(store, { dataset: 'tiny', seed: 1, today: TODAY, hostile: false });
    const hash = createHash('sha256');
    for (const { name } of store.all<{ name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name",
    )) {
      hash.update(name + JSON.stringify(store.all(`SELECT * FROM ${name}`)));
    }
    expect(hash.digest('hex')).toBe('6d450775fc58310ae5972b343f40628688458dd3dbdb3495ba109dddd57dc0bf');
  });
});
