/**
 * Who a search can match, without testing everyone: over the in-memory users in
 * name order (users-memo.ts), the positions of the users with a search key
 * starting with each one- and two-character beginning. A query word picks its
 * list ("ba" for "bailey", "m" for "m"); the query's shortest list is the only
 * one the full test (every word, the filters) runs over, in name order.
 *
 * Why: a search tested every cached person on each keystroke, 2–3 ms for 20,000
 * people but 20–30 ms for 200,000 (dataset `xl`), over the 16 ms a view query
 * may take. Built once per copy of the users (about 1.6 million small numbers
 * for 200,000 people), and dropped with it. Written here because it is a few
 * lines over an array the app already holds; a full-text library would keep a
 * second copy of every name and rank by relevance, where the list keeps its
 * name order.
 */
import type { UserRecord } from '../../shared/records.ts';

export interface UsersSearchIndex {
  /** positions in the users array (ascending: name order) of those a search for `words` can match; null: every user */
  candidates(words: readonly string[]): Int32Array | null;
}

const EMPTY = new Int32Array(0);

function build(users: readonly UserRecord[]): Map<string, Int32Array> {
  const lists = new Map<string, number[]>();
  const add = (start: string, position: number) => {
    let list = lists.get(start);
    if (!list) lists.set(start, (list = []));
    // one entry per user and beginning, however many of their keys start so
    if (list[list.length - 1] !== position) list.push(position);
  };
  users.forEach((user, position) => {
    for (const key of user.searchKeys) {
      if (key.length === 0) continue;
      add(key.slice(0, 1), position);
      if (key.length > 1) add(key.slice(0, 2), position);
    }
  });
  return new Map([...lists].map(([start, list]) => [start, Int32Array.from(list)]));
}

const built = new WeakMap<readonly UserRecord[], UsersSearchIndex>();

/** The index of this copy of the users (built on first use; the copy must not change). */
export function usersSearchIndex(users: readonly UserRecord[]): UsersSearchIndex {
  let index = built.get(users);
  if (!index) {
    const lists = build(users);
    index = {
      candidates(words) {
        let shortest: Int32Array | null = null;
        for (const word of words) {
          const list = lists.get(word.slice(0, 2)) ?? EMPTY;
          if (!shortest || list.length < shortest.length) shortest = list;
        }
        return shortest;
      },
    };
    built.set(users, index);
  }
  return index;
}
