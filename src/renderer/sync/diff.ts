/**
 * Pure comparison of incoming records with the cached ones, so a resync writes
 * only what changed.
 */

/** Deep equality of plain JSON-like values (what structured clone gives back). */
export function deepEqualJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqualJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of ka) {
    if (!Object.hasOwn(rb, k) || !deepEqualJson(ra[k], rb[k])) return false;
  }
  return true;
}

/** The incoming records that are new or differ from the stored one at the same index. */
export function changedRecords<T>(incoming: readonly T[], stored: readonly (T | undefined)[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < incoming.length; i++) {
    const rec = incoming[i]!;
    const old = stored[i];
    if (old === undefined || !deepEqualJson(rec, old)) out.push(rec);
  }
  return out;
}
