/**
 * A live query whose answer is about one thing (a course's overdue people, a
 * credential's holders, a group's members). Dexie's `useLiveQuery` keeps its
 * last answer while the query for new inputs runs: opening another course
 * showed, for a moment, the previous list's count and rows under the new
 * course's name, and a "Select all 72 matching" that selected the new course's
 * 3 people. Here an answer is shown only under the subject it was read for;
 * while the new subject is read the list says it is loading. Changes to the same
 * subject (a pending edit, the next page) keep the last answer, as before, so
 * the list does not flicker.
 */
import { useLiveQuery } from 'dexie-react-hooks';

interface Answer<T> {
  subject: readonly unknown[];
  value: T;
}

/** Whether two subjects are the same, element by element (ids, windows, the database). */
export function sameSubject(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
}

/** The query's answer for `subject`, or undefined while only an answer about another subject is known. */
export function useLiveQueryAbout<T>(
  subject: readonly unknown[],
  query: () => Promise<T>,
  deps: readonly unknown[],
): T | undefined {
  const answer = useLiveQuery(
    async (): Promise<Answer<T>> => ({ subject, value: await query() }),
    [...subject, ...deps],
  );
  return answer && sameSubject(answer.subject, subject) ? answer.value : undefined;
}
