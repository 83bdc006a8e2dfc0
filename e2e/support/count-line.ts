/**
 * A list's count line, as numbers: "1,234 holders", "500 of 1,234 credentials held
 * (scroll for more)", "40 people", "72 training assignments", "12 of 300 users". One reader for
 * every spec, so a change of the words is one change here.
 */
import { expect, type Locator, type Page } from '@playwright/test';

const NOUNS = [
  'holders?',
  'credentials? held',
  'training assignments?',
  'courses?',
  'people',
  'person',
  'users?',
];
export const COUNT_LINE = new RegExp(
  `^(?:([\\d,]+) of )?([\\d,]+) (?:${NOUNS.join('|')})(?: \\(scroll for more\\))?$`,
);

const number = (text: string) => Number(text.replace(/,/g, ''));

export interface Counted {
  /** the rows read so far (lists read a page at a time), or the people the filter shows (users) */
  shown: number;
  /** the rows the list holds in all (users: every person of the cache) */
  total: number;
}

export function parseCountLine(text: string): Counted | null {
  const match = COUNT_LINE.exec(text.trim());
  if (!match) return null;
  const total = number(match[2]!);
  return { shown: match[1] === undefined ? total : number(match[1]), total };
}

/** The count line inside `scope`, once its list has loaded. */
export async function countedIn(scope: Locator): Promise<Counted> {
  const line = scope.getByRole('status').filter({ hasText: COUNT_LINE }).first();
  await expect(line).toBeVisible();
  return parseCountLine(await line.innerText())!;
}

/**
 * The number a list's count line gives: "1,234 holders", "500 of 1,234 credentials held (scroll for more)", "12 of 300
 * users".
 */
export async function listedCount(page: Page): Promise<number> {
  const line = page.getByRole('status').filter({ hasText: COUNT_LINE }).first();
  await expect(line).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  const text = (await line.textContent())!;
  const counted = parseCountLine(text)!;
  // the users line counts what the filter shows; the other lines count what the list holds (read a page at a time)
  return text.endsWith('users') ? counted.shown : counted.total;
}
