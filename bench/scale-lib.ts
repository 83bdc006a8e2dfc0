/**
 * Pure parts of the scale benchmark (no I/O): which parts to run, how their
 * figures are named (so a run of some parts keeps the others' figures in
 * results.json), records of the cache that are not the kept sites' on the
 * server, and the small arithmetic of its notes.
 */

export const SCALE_PARTS = ['one', 'remove', 'all', 'views'] as const;
export type ScalePart = (typeof SCALE_PARTS)[number];
/** `views` runs only when named: it measures again the views of a cache part `all` kept (FIELDBOOK_SCALE_KEEP) */
const DEFAULT_PARTS: readonly ScalePart[] = ['one', 'remove', 'all'];

/** How each part's figure names begin: the part is read back from a figure's name. */
export const PART_PREFIX: Record<ScalePart, string> = {
  one: 'one site kept',
  remove: 'removing a kept site',
  all: 'all sites kept',
  views: 'all sites kept, views again',
};

/**
 * The parts named in `FIELDBOOK_SCALE_PARTS` ("one,all"), in the order they run
 * (one, remove, all, views); one, remove and all when unset or empty. Throws on a name it does
 * not know, naming the known ones.
 */
export function scaleParts(spec: string | undefined): ScalePart[] {
  const names = (spec ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) return [...DEFAULT_PARTS];
  const unknown = names.filter((n) => !(SCALE_PARTS as readonly string[]).includes(n));
  if (unknown.length)
    throw new Error(
      `FIELDBOOK_SCALE_PARTS: unknown part(s) ${unknown.join(', ')}; the parts are ${SCALE_PARTS.join(', ')}`,
    );
  return SCALE_PARTS.filter((p) => names.includes(p));
}

/** The part a figure's name belongs to (null: none of them). */
export function partOfFigure(name: unknown): ScalePart | null {
  if (typeof name !== 'string') return null;
  return SCALE_PARTS.find((p) => name.startsWith(`${PART_PREFIX[p]}:`)) ?? null;
}

/** Whether a result entry of an earlier run is kept beside this run's: a figure of a part not run now. */
export function keepsEarlierFigure(partsRun: readonly ScalePart[], entry: { name?: unknown }): boolean {
  const part = partOfFigure(entry.name);
  return part !== null && !partsRun.includes(part);
}

export interface StrayCount {
  /** cache records that are not among the kept sites' records on the server, per collection */
  stray: Record<string, number>;
  strayTotal: number;
  /** the kept sites' records on the server that the cache lacks, per collection */
  missing: Record<string, number>;
  missingTotal: number;
  /** the kept sites' records on the server, all collections */
  keptTotal: number;
  /** a few stray keys, "collection key" */
  examples: string[];
}

/**
 * The cache's primary keys, per collection, against the keys the server holds
 * for the kept sites (per collection, as strings): what the cache holds beyond
 * them (records of other sites, or of nothing) and what it lacks. A collection
 * the server side does not name is not compared.
 */
export function strayRecords(
  cache: Readonly<Record<string, readonly (string | number)[]>>,
  kept: Readonly<Record<string, { has(key: string): boolean; size: number }>>,
): StrayCount {
  const out: StrayCount = {
    stray: {},
    strayTotal: 0,
    missing: {},
    missingTotal: 0,
    keptTotal: 0,
    examples: [],
  };
  for (const [collection, keys] of Object.entries(kept)) {
    const cached = cache[collection] ?? [];
    let found = 0;
    let stray = 0;
    for (const key of cached) {
      if (keys.has(String(key))) found++;
      else {
        stray++;
        if (out.examples.length < 5) out.examples.push(`${collection} ${key}`);
      }
    }
    if (stray) out.stray[collection] = stray;
    if (keys.size - found) out.missing[collection] = keys.size - found;
    out.strayTotal += stray;
    out.missingTotal += keys.size - found;
    out.keptTotal += keys.size;
  }
  return out;
}

/** "users 3, emails 2": the non-zero counts, most first ("none" when all are zero). */
export function describeCounts(counts: Readonly<Record<string, number | undefined>>): string {
  const parts = Object.entries(counts)
    .filter((e): e is [string, number] => (e[1] ?? 0) > 0)
    .sort((a, b) => b[1] - a[1]);
  return parts.length ? parts.map(([k, n]) => `${k} ${n.toLocaleString('en-US')}`).join(', ') : 'none';
}

/** Bytes as MB with one decimal. */
export function megabytes(bytes: number): number {
  return Math.round(bytes / 104_857.6) / 10;
}
