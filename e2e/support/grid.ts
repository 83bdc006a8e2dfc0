/** What a grid shows, read in the page. */
import type { Page } from '@playwright/test';

/** The texts of a grid's column cut short with an ellipsis ("expired 68 days …"). */
export async function clippedCells(
  page: Page,
  grid: string,
  column: string,
  withoutTooltip = false,
): Promise<string[]> {
  // runs in the page (this file is type-checked without the DOM library)
  type Cell = { scrollWidth: number; clientWidth: number; textContent: string | null; title: string };
  type Node = { textContent: string | null; querySelectorAll(selector: string): ArrayLike<Node & Cell> };
  return page.getByRole('grid', { name: grid }).evaluate(
    (el, [header, untitled]) => {
      const node = el as unknown as Node;
      const heads = Array.from(node.querySelectorAll('[role=columnheader]')).map((h) =>
        h.textContent?.trim(),
      );
      const at = heads.indexOf(header);
      return Array.from(node.querySelectorAll('[role=row]'))
        .slice(1)
        .map((row) => row.querySelectorAll('[role=gridcell]')[at])
        .filter((cell): cell is Node & Cell => cell !== undefined && cell.scrollWidth > cell.clientWidth + 1)
        .filter((cell) => !untitled || cell.title !== cell.textContent)
        .map((cell) => cell.textContent ?? '');
    },
    [column, withoutTooltip] as const,
  );
}
