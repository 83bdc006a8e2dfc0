/**
 * Sites to keep at scale (issue 28): dataset `xl` (40 sites, 200,000 people,
 * about 7.3 million records) served from a SQLite file generated once into the
 * benchmarks' cache folder, in Chromium through the browser harness. Parts
 * (FIELDBOOK_SCALE_PARTS=one,remove,all; all three by default, in that order):
 *  - one: a profile keeping one site; its first sync against the transfer floor
 *    of its own plan, its plan's bytes against the all-sites plan's, resyncs
 *    with nothing changed, and no record of another site in IndexedDB;
 *  - remove: a second site added, then taken off: the longest main-thread task;
 *  - all: every site kept; the full sync against its write floor, the view
 *    queries, the cold start, the renderer's heap, the cache's size on disk.
 * The all-sites plan's bytes come from the full sync when `all` runs, else from
 * a transfer-only pass of main's engine (bench/transfer-pass.ts). A run of some
 * parts keeps the other parts' figures in results.json. FIELDBOOK_SCALE_KEEP=DIR
 * keeps part `all`'s cache there, and part `views` (only when named) measures its
 * queries, cold start and size again without syncing it again.
 * FIELDBOOK_SCALE_DATASET=multi (6 sites, 1,200 people) tries it in a minute.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchContext, Figure } from './lib.ts';
import { runAllSites, runViewsAgain } from './scale-all.ts';
import { keepsEarlierFigure, megabytes, PART_PREFIX, scaleParts, type ScalePart } from './scale-lib.ts';
import { runOneSite, type OneSiteResult } from './scale-one.ts';
import { runRemoval } from './scale-remove.ts';
import { SCALE_DATASET, startScaleSession, type ScaleSession } from './scale-session.ts';
import { load } from './synced-session-lib.ts';
import { transferOnlyPass } from './transfer-pass.ts';

export const name = 'scale';
export const description = `sites kept on a laptop, dataset ${SCALE_DATASET} in Chromium: one site of many (first sync, plan bytes, resync, other sites' records), removing a site (longest task), all sites (full sync vs write floor, queries, cold start, heap, disk)`;

const parts = scaleParts(process.env.FIELDBOOK_SCALE_PARTS);
/**
 * FIELDBOOK_SCALE_KEEP=DIR: part `all` keeps its cache (browser profile, settings) there; part `views` measures it
 * again
 */
const KEEP = process.env.FIELDBOOK_SCALE_KEEP;

export function keepsEarlier(entry: { bench: string; name?: unknown }): boolean {
  return keepsEarlierFigure(parts, entry);
}

/** A part that failed: a figure saying so (the other parts' figures are kept). */
function failed(part: ScalePart, err: unknown): Figure {
  return {
    name: `${PART_PREFIX[part]}: failed`,
    value: 0,
    unit: '',
    pass: false,
    note: err instanceof Error ? err.message : String(err),
  };
}

/** The one-site plan's bytes against the all-sites plan's (at most a tenth). */
function bytesFigure(one: OneSiteResult, sites: number, allBytes: number, how: string): Figure {
  const ratio = allBytes > 0 ? one.planBytes / allBytes : 0;
  const oneSize = megabytes(one.planBytes);
  const allSize = megabytes(allBytes);
  return {
    name: `${PART_PREFIX.one}: plan's bytes vs the all-sites plan's`,
    value: Math.round(ratio * 10_000) / 10_000,
    unit: 'of all-sites',
    target: '<= 0.1',
    pass: allBytes > 0 && ratio <= 0.1,
    note: `${oneSize} MB (${one.site.sitename}) of ${allSize} MB (every site of ${sites}), ${how}`,
  };
}

async function allSitesBytesWithoutSync(
  ctx: BenchContext,
  s: ScaleSession,
): Promise<{ bytes: number; how: string }> {
  ctx.log(
    `${PART_PREFIX.one}: the all-sites plan's bytes, by a transfer-only pass of main's engine (no renderer, nothing written)`,
  );
  const before = load();
  const pass = await transferOnlyPass(s.session.server.baseUrl, s.session.server.token);
  const records = pass.records.toLocaleString('en-US');
  const took = Math.round(pass.ms / 1000);
  const after = load();
  return {
    bytes: pass.bytes,
    how: `the all-sites plan read by main's own sync engine and API client in the bench's process, every page acknowledged at once, no renderer and nothing written (${pass.requests} requests, ${records} records, ${took} s; load average ${before} -> ${after})`,
  };
}

async function runSitesParts(ctx: BenchContext, figures: Figure[]): Promise<OneSiteResult | null> {
  const s = await startScaleSession(ctx);
  let one: OneSiteResult | null = null;
  try {
    if (parts.includes('one')) {
      try {
        one = await runOneSite(ctx, s);
        figures.push(...one.figures);
        if (!parts.includes('all')) {
          const all = await allSitesBytesWithoutSync(ctx, s);
          figures.push(bytesFigure(one, s.data.sites.length, all.bytes, all.how));
        }
      } catch (err) {
        figures.push(failed('one', err));
      }
    }
    if (parts.includes('remove')) {
      try {
        figures.push(...(await runRemoval(ctx, s, one !== null)));
      } catch (err) {
        figures.push(failed('remove', err));
      }
    }
  } finally {
    await s.close();
  }
  return one;
}

export async function run(ctx: BenchContext): Promise<Figure[]> {
  ctx.log(`dataset ${SCALE_DATASET}; parts ${parts.join(', ')}`);
  const figures: Figure[] = [];
  const one = parts.includes('one') || parts.includes('remove') ? await runSitesParts(ctx, figures) : null;
  if (parts.includes('all')) {
    const s = await startScaleSession(ctx, KEEP);
    try {
      const allBytes = await runAllSites(ctx, s, figures);
      if (one)
        figures.push(
          bytesFigure(
            one,
            s.data.sites.length,
            allBytes,
            'the Content-Length of the full sync\'s answers (part "all" of this run)',
          ),
        );
    } catch (err) {
      figures.push(failed('all', err));
    } finally {
      await s.close();
    }
  }
  if (parts.includes('views')) await viewsAgain(ctx, figures);
  return figures;
}

async function viewsAgain(ctx: BenchContext, figures: Figure[]): Promise<void> {
  if (KEEP === undefined || !existsSync(path.join(KEEP, 'chromium'))) {
    figures.push(
      failed(
        'views',
        new Error('part "views" needs FIELDBOOK_SCALE_KEEP=DIR naming the folder a run of part "all" kept'),
      ),
    );
    return;
  }
  const s = await startScaleSession(ctx, KEEP);
  try {
    await runViewsAgain(ctx, s, figures);
  } catch (err) {
    figures.push(failed('views', err));
  } finally {
    await s.close();
  }
}
