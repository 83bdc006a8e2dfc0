/**
 * Long lists (credentials expiring, training overdue) read the cache a page at a
 * time and the next page as the coordinator scrolls to the end. Pending edits
 * are laid over each page: a renewal queued for someone on the page takes them
 * out of an "expiring" list, so a page read for 200 rows can show fewer. Whether
 * more is to read is therefore a matter of the rows read from the cache, not of
 * the rows shown.
 */

/** What a page of a long list was read as. */
export interface PageRead {
  /** the rows asked of the cache */
  limit: number;
  /** the cache gave as many as asked: it may hold more past them */
  more: boolean;
}

/** `rowsRead` of the cache for `limit` (Infinity: the whole list, nothing more to read). */
export function pageRead(limit: number, rowsRead: number): PageRead {
  return { limit, more: Number.isFinite(limit) && rowsRead >= limit };
}

/**
 * Whether reaching the end of the list reads the next page: the page for the
 * current limit has arrived (not an earlier one still shown), the cache may hold
 * rows past it, and fewer rows are shown than the list counts.
 */
export function shouldReadMore(
  page: PageRead | undefined,
  limit: number,
  shown: number,
  total: number,
): boolean {
  return page !== undefined && page.limit === limit && page.more && shown < total;
}
