import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store, type ListQuery } from './store.ts';

let store: Store;
const usersOfSite: ListQuery = {
  select: 'u.userid',
  from: 'users u',
  where: ['u.siteid = ?'],
  params: [1],
  key: 'u.userid',
};
const ids = (rows: { userid: number }[]): number[] => rows.map((r) => r.userid);

beforeEach(() => {
  store = new Store(':memory:');
  store.tx(() => {
    for (let i = 1; i <= 50; i++) {
      store.run(
        "INSERT INTO users (userid, siteid, username, firstname, lastname, employeeid, status, usertype) VALUES (?, ?, ?, 'F', 'L', '', 'Active', 'User')",
        i * 3,
        i % 5 === 0 ? 2 : 1,
        `user${i}`,
      );
    }
  });
});
afterEach(() => store.close());

function offsetPage(startrow: number, limit: number): number[] {
  return ids(
    store.all<{ userid: number }>(
      'SELECT userid FROM users WHERE siteid = 1 ORDER BY userid LIMIT ? OFFSET ?',
      limit,
      startrow - 1,
    ),
  );
}

describe('list pages', () => {
  it('are the same whether read in order, out of order, or cold', () => {
    const inOrder = [1, 8, 15, 22, 29, 36].map((s) =>
      ids(store.page<{ userid: number }>(usersOfSite, { startrow: s, limit: 7 })),
    );
    expect(inOrder).toEqual([1, 8, 15, 22, 29, 36].map((s) => offsetPage(s, 7)));
    const shuffled = [29, 1, 22, 36, 8, 15].map(
      (s) => [s, ids(store.page<{ userid: number }>(usersOfSite, { startrow: s, limit: 7 }))] as const,
    );
    for (const [s, page] of shuffled) expect(page).toEqual(offsetPage(s, 7));
    // a startrow between two known page starts
    expect(ids(store.page<{ userid: number }>(usersOfSite, { startrow: 10, limit: 5 }))).toEqual(
      offsetPage(10, 5),
    );
  });

  it('reflect a write made between two pages', () => {
    store.page(usersOfSite, { startrow: 1, limit: 10 });
    store.tx(() => store.run('DELETE FROM users WHERE userid = ?', 6));
    expect(ids(store.page<{ userid: number }>(usersOfSite, { startrow: 11, limit: 10 }))).toEqual(
      offsetPage(11, 10),
    );
  });

  it('roll back every statement of a failed transaction', () => {
    expect(() =>
      store.tx(() => {
        store.run("UPDATE users SET firstname = 'Changed' WHERE userid = 3");
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(store.get<{ firstname: string }>('SELECT firstname FROM users WHERE userid = 3')!.firstname).toBe(
      'F',
    );
  });
});
