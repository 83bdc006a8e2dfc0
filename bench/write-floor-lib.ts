/**
 * The write floor, driver side: carries the cache's records, stretch by
 * stretch, from the benchmark page of the main profile (the source) to the
 * benchmark page of a fresh profile (the target), which writes them in the
 * sync's page sizes and times only the writes (bench/browser/write-floor.ts).
 */
import type { CollectionName } from '../src/shared/records.ts';
import type { BenchPage } from './browser-lib.ts';

export interface CollectionPages {
  collection: CollectionName;
  /** records per page, in order, as the sync delivered them */
  pageSizes: number[];
}

export interface WriteFloorPart {
  ms: number;
  records: number;
  pages: number;
}

export interface WriteFloorResult extends WriteFloorPart {
  byCollection: Partial<Record<CollectionName, WriteFloorPart>>;
}

/** Pages carried over at once: about 40,000 records, a few tens of MB of JSON. */
const PAGES_PER_STRETCH = 40;

export async function measureWriteFloor(
  source: BenchPage,
  target: BenchPage,
  plan: CollectionPages[],
  schema: 'app' | 'keys' = 'app',
): Promise<WriteFloorResult> {
  const result: WriteFloorResult = { ms: 0, records: 0, pages: 0, byCollection: {} };
  await target.floorOpen(schema);
  try {
    for (const { collection, pageSizes } of plan) {
      const part = (result.byCollection[collection] = { ms: 0, records: 0, pages: 0 });
      let lastKey: string | number | null = null;
      for (let first = 0; first < pageSizes.length; first += PAGES_PER_STRETCH) {
        const sizes = pageSizes.slice(first, first + PAGES_PER_STRETCH);
        const stretch = await source.readStretch(
          collection,
          lastKey,
          sizes.reduce((a, b) => a + b, 0),
        );
        if (stretch.records === 0) break;
        lastKey = stretch.lastKey;
        await target.floorStage(stretch.json);
        part.ms += await target.floorWrite(collection, sizes);
        part.records += stretch.records;
        part.pages += pagesHolding(sizes, stretch.records);
      }
      result.ms += part.ms;
      result.records += part.records;
      result.pages += part.pages;
    }
  } finally {
    await target.floorClose();
  }
  return result;
}

/** How many of these pages `records` records fill (the last one possibly short). */
export function pagesHolding(sizes: readonly number[], records: number): number {
  let pages = 0;
  for (let left = records; left > 0 && pages < sizes.length; pages++) left -= sizes[pages]!;
  return pages;
}
