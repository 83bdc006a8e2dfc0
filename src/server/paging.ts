/**
 * Pagination of list routes: `startrow` is 1-based (default 1), `limit`
 * defaults to 100 and is clamped to 1000, and `pagination.next` repeats the
 * request with the next `startrow`. Pure.
 */
import { invalid } from './status.ts';
import type { PageRequest } from './store.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

function positiveInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw.trim() === '') return undefined;
  if (!/^\d{1,12}$/.test(raw.trim()) || Number(raw) < 1) throw invalid(`${name} must be a positive integer.`);
  return Number(raw);
}

export function parsePaging(query: URLSearchParams): PageRequest {
  const startrow = positiveInt(query, 'startrow') ?? 1;
  const limit = Math.min(MAX_LIMIT, positiveInt(query, 'limit') ?? DEFAULT_LIMIT);
  return { startrow, limit };
}

/** The URL that continues a list: same path and search, the next startrow, the same limit. */
export function nextPageUrl(
  baseUrl: string,
  path: string,
  query: URLSearchParams,
  page: PageRequest,
): string {
  const next = new URLSearchParams();
  for (const [k, v] of query) if (k !== 'startrow' && k !== 'limit') next.append(k, v);
  next.set('startrow', String(page.startrow + page.limit));
  next.set('limit', String(page.limit));
  return `${baseUrl}${path}?${next.toString()}`;
}
