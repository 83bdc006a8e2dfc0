/**
 * Main's cost for the items of a changed page in a resync, per item, on pages
 * the reference server serves (dataset `m`, 1,000 per page: the training
 * assignments of every site, and the users): how the sync reads them now (a
 * scan of the bytes for each item's place and key, a hash of each item's bytes,
 * a parse of only the items the cache does not hold; `src/main/api/list-scan.ts`)
 * against what it replaced, the floor here (the body decoded and parsed whole,
 * each item re-serialised and hashed). One item in a hundred counts as changed,
 * as in the sync benchmark's 1% resync; and in a first sync, where the cache
 * holds nothing and every item is parsed on its own. No target: the figures
 * say what the scan saves of main's share of a resync, and what it costs a
 * first sync.
 */
import { hash } from 'node:crypto';
import { startServer } from '../src/server/index.ts';
import { scanList } from '../src/main/api/list-scan.ts';
import type { BenchContext, Figure } from './lib.ts';

export const name = 'page-scan';
export const description =
  "main's work per item of a changed resync page: scan + hash of each item's bytes vs parse + re-serialise + hash (dataset m)";

const ROUNDS = 5;
/** the lists read, by the site ids of the dataset */
const lists = (siteids: readonly number[]) => [
  ...siteids.map((siteid) => ({
    path: `/sites/${siteid}/trainingassignments`,
    wrapper: 'trainingassignments',
    key: 'transcriptid',
  })),
  { path: '/users', wrapper: 'users', key: 'userid' },
];

const short = (data: string | Uint8Array) => hash('sha1', data, 'base64url').slice(0, 8);

interface Page {
  bytes: Uint8Array;
  wrapper: string;
  key: string;
  /** key -> the hash the cache holds (every hundredth item's differs: changed) */
  held: Map<number, string>;
}

/** The replaced way: decode, parse whole, re-serialise and hash every item. Returns the items found changed. */
function parseWhole(pages: readonly Page[]): number {
  const decoder = new TextDecoder();
  let changed = 0;
  for (const page of pages) {
    const list = (JSON.parse(decoder.decode(page.bytes)) as Record<string, Record<string, unknown>[]>)[
      page.wrapper
    ]!;
    for (const item of list)
      if (page.held.get(item[page.key] as number) !== short(JSON.stringify(item))) changed++;
  }
  return changed;
}

/** Today's way: scan, hash each item's bytes, parse the changed ones. */
function scanItems(pages: readonly Page[]): number {
  const decoder = new TextDecoder();
  let changed = 0;
  for (const page of pages) {
    const list = scanList(page.bytes, page.wrapper, [page.key])!;
    JSON.parse(list.skeleton);
    for (let i = 0; i < list.spans.length / 2; i++) {
      const bytes = page.bytes.subarray(list.spans[2 * i], list.spans[2 * i + 1]);
      if (page.held.get(list.keys[i]!) === short(bytes)) continue;
      JSON.parse(decoder.decode(bytes));
      changed++;
    }
  }
  return changed;
}

function cpuMs(run: () => number): { ms: number; changed: number } {
  const before = process.cpuUsage();
  const changed = run();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, changed };
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('starting the reference server (dataset m) and fetching its pages');
  const server = await startServer({ dataset: 'm', port: 0 });
  const pages: Page[] = [];
  try {
    const token = server.tokens.find((t) => t.access === 'full')!.token;
    const get = (path: string) => fetch(`${server.baseUrl}${path}`, { headers: { AccessToken: token } });
    const sites = (await (await get('/sites?limit=1000')).json()) as { sites: { siteid: number }[] };
    for (const list of lists(sites.sites.map((s) => s.siteid))) {
      for (let p = 0; ; p++) {
        const res = await get(`${list.path}?startrow=${p * 1000 + 1}&limit=1000`);
        const bytes = new Uint8Array(await res.arrayBuffer());
        const items = (
          JSON.parse(new TextDecoder().decode(bytes)) as Record<string, Record<string, unknown>[] | undefined>
        )[list.wrapper];
        if (!items || items.length === 0) break;
        const held = new Map<number, string>();
        items.forEach((item, i) =>
          held.set(item[list.key] as number, i % 100 === 0 ? 'changed!' : short(JSON.stringify(item))),
        );
        pages.push({ bytes, wrapper: list.wrapper, key: list.key, held });
      }
    }
  } finally {
    await server.close();
  }
  const firstSync = pages.map((page) => ({ ...page, held: new Map<number, string>() }));
  return [
    measure('changed page, per item (scan + hash + parse the changed)', pages),
    measure('first sync, per item (scan + hash + parse each item)', firstSync),
  ];
}

/** Both ways over `pages`, median of ROUNDS after a warm-up round, per item. */
function measure(name: string, pages: readonly Page[]): Figure {
  const items = pages.reduce((n, p) => n + scanList(p.bytes, p.wrapper)!.spans.length / 2, 0);
  const megabytes = pages.reduce((n, p) => n + p.bytes.length, 0) / 1e6;
  const whole: number[] = [];
  const scanned: number[] = [];
  // one round first, not counted: both ways compiled and warm, as in a sync's hundreds of pages
  parseWhole(pages);
  scanItems(pages);
  for (let round = 0; round < ROUNDS; round++) {
    const a = cpuMs(() => parseWhole(pages));
    const b = cpuMs(() => scanItems(pages));
    if (a.changed !== b.changed)
      throw new Error(`the two ways disagree: ${a.changed} vs ${b.changed} changed items`);
    whole.push(a.ms);
    scanned.push(b.ms);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  const perItem = (ms: number) => (ms * 1000) / items;
  const floor = perItem(median(whole));
  const value = perItem(median(scanned));
  const roundedMs = (xs: number[]) => xs.map((ms) => Math.round(ms)).join(', ');
  const scans = roundedMs(scanned);
  const parses = roundedMs(whole);
  const itemCount = items.toLocaleString('en-US');
  const size = megabytes.toFixed(1);
  return {
    name,
    value: Math.round(value * 100) / 100,
    unit: 'µs CPU',
    floor: Math.round(floor * 100) / 100,
    ratio: value / floor,
    note: `median of ${ROUNDS} rounds (scan ${scans} ms; parse whole ${parses} ms); ${itemCount} items in ${pages.length} pages, ${size} MB; floor = parse whole, re-serialise and hash each item`,
  };
}
