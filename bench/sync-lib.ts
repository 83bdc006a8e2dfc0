/**
 * Pure arithmetic of the sync benchmarks (no I/O): which recorded requests were
 * the sync's, how a collection is cut into pages the way the sync delivered it,
 * the replay of a request list at bounded concurrency, and ratio figures.
 */
import type { Figure } from './lib.ts';

export interface RecordedRequest {
  method: string;
  url: string;
  /** `performance.now()` when the handlers made it */
  at?: number;
  /** the answer's body size (its Content-Length), once it came */
  bytes?: number;
  /** `performance.now()` when the answer's headers came (the reference server sends a page whole) */
  answeredAt?: number;
}

export interface RequestTimeline {
  /** from the click to the first request */
  beforeFirstMs: number;
  /** from the first request to the last answer */
  spanMs: number;
  /** from the last answer to the end the user sees */
  afterLastMs: number;
  /**
   * over the span, the time with fewer requests in flight than the lanes the engine has: waiting on a parent list, or
   * on the page's writes
   */
  underusedMs: number;
}

/**
 * Where a sync's time went around its requests: before the first, between the
 * first and the last answer (and how much of that had a lane free), after the
 * last. Requests without both times are left out.
 */
export function requestTimeline(
  startedAt: number,
  doneAt: number,
  requests: readonly RecordedRequest[],
  lanes: number,
): RequestTimeline {
  const timed = requests.filter(
    (r): r is RecordedRequest & { at: number; answeredAt: number } =>
      r.at !== undefined && r.answeredAt !== undefined,
  );
  if (timed.length === 0)
    return { beforeFirstMs: doneAt - startedAt, spanMs: 0, afterLastMs: 0, underusedMs: 0 };
  const first = Math.min(...timed.map((r) => r.at));
  const last = Math.max(...timed.map((r) => r.answeredAt));
  const edges = timed
    .flatMap((r) => [
      { t: r.at, d: 1 },
      { t: r.answeredAt, d: -1 },
    ])
    .sort((a, b) => a.t - b.t || a.d - b.d);
  let inFlight = 0;
  let underused = 0;
  let since = first;
  for (const e of edges) {
    if (inFlight < lanes) underused += e.t - since;
    inFlight += e.d;
    since = e.t;
  }
  return {
    beforeFirstMs: first - startedAt,
    spanMs: last - first,
    afterLastMs: doneAt - last,
    underusedMs: underused,
  };
}

/** "0.12 s to the first request, 1.50 s of requests (0.40 s of it with a lane free), 0.08 s after the last answer" */
export function describeTimeline(t: RequestTimeline): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const beforeFirst = s(t.beforeFirstMs);
  const span = s(t.spanMs);
  const underused = s(t.underusedMs);
  const afterLast = s(t.afterLastMs);
  return `${beforeFirst} to the first request, ${span} of requests (${underused} of it with fewer in flight than the engine's lanes), ${afterLast} after the last answer`;
}

/**
 * A request the sync made, as opposed to the connection and access probes that
 * run beside it (`GET /sites?limit=1`, `GET /users?limit=1`, `PUT /users/N`).
 */
export function isSyncRequest(request: RecordedRequest): boolean {
  if (request.method !== 'GET') return false;
  const limit = new URL(request.url).searchParams.get('limit');
  return limit !== '1';
}

/** Page sizes that cut `records` into `messages` pages as evenly as the sync's pages of at most `limit`. */
export function pageSizes(records: number, messages: number, limit = 1000): number[] {
  if (records <= 0) return [];
  const pages = Math.max(messages, Math.ceil(records / limit), 1);
  const base = Math.floor(records / pages);
  const extra = records % pages;
  return Array.from({ length: pages }, (_, i) => base + (i < extra ? 1 : 0));
}

/**
 * Runs `send` over `urls` in their recorded order with at most `concurrency`
 * in flight; resolves with the elapsed milliseconds of the whole list.
 */
export async function replayAtConcurrency(
  urls: readonly string[],
  concurrency: number,
  send: (url: string) => Promise<void>,
  now: () => number = () => performance.now(),
): Promise<number> {
  let next = 0;
  const started = now();
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++]!;
      await send(url);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, urls.length)) }, worker));
  return now() - started;
}

/**
 * The round whose time/floor ratio is the median (the lower middle one of an
 * even count), and every round's ratio, in round order, for the note.
 */
export function medianRound<T extends { ms: number; floorMs: number }>(
  rounds: readonly T[],
): { median: T; ratios: string } {
  if (rounds.length === 0) throw new Error('no round to take the median of');
  const ratio = (r: T) => r.ms / r.floorMs;
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  return {
    median: sorted[Math.floor((sorted.length - 1) / 2)]!,
    ratios: rounds.map((r) => `${ratio(r).toFixed(2)}x`).join(', '),
  };
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;

/** A time compared with its floor: `ratio` = value / floor, passing at or under `maxRatio`. */
export function ratioFigure(
  name: string,
  ms: number,
  floorMs: number,
  maxRatio: number,
  note?: string,
): Figure {
  const ratio = floorMs > 0 ? round(ms / floorMs) : 0;
  return {
    name,
    value: round(ms / 1000),
    unit: 's',
    floor: round(floorMs / 1000),
    ratio,
    target: `<= ${maxRatio}x floor`,
    pass: floorMs > 0 && ratio <= maxRatio,
    ...(note ? { note } : {}),
  };
}

/** A figure with an upper bound (`value <= max`). */
export function atMost(name: string, value: number, unit: string, max: number, note?: string): Figure {
  return {
    name,
    value: round(value),
    unit,
    target: `<= ${max.toLocaleString('en-US')} ${unit}`,
    pass: value <= max,
    ...(note ? { note } : {}),
  };
}

/** Whole number from a status text such as "Sync completed. 1,234 records written." (null if none). */
export function rowsWrittenFrom(text: string): number | null {
  const match = /([\d,.\s\u00a0\u202f]+)\s+records? written/.exec(text);
  if (!match) return null;
  const digits = match[1]!.replace(/\D/g, '');
  return digits ? Number(digits) : null;
}

/** "users 5,000/s (4.0 s), ..." for the collections that took longest, most first. */
export function slowestParts(
  parts: Record<string, { ms: number; records: number } | undefined>,
  count = 3,
): string {
  return Object.entries(parts)
    .filter(
      (entry): entry is [string, { ms: number; records: number }] =>
        entry[1] !== undefined && entry[1].records > 0,
    )
    .sort((a, b) => b[1].ms - a[1].ms)
    .slice(0, count)
    .map(([name, p]) => {
      const rate = Math.round((p.records * 1000) / Math.max(p.ms, 1)).toLocaleString('en-US');
      return `${name} ${rate}/s (${round(p.ms / 1000, 1)} s)`;
    })
    .join(', ');
}
