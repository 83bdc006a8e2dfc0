/**
 * `node bench/run.ts [NAME...]`: runs the benchmarks of `bench/*.bench.ts` (all,
 * or those named), prints a table and writes `bench/results.json`.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { BenchContext, BenchModule, BenchResult, Figure } from './lib.ts';

const here = dirname(fileURLToPath(import.meta.url));

function isBenchModule(value: unknown): value is BenchModule {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return typeof m.name === 'string' && typeof m.description === 'string' && typeof m.run === 'function';
}

interface Candidate {
  /** the file name without `.bench.ts` (by convention the benchmark's name) */
  stem: string;
  load(): Promise<BenchModule>;
}

function candidates(): Candidate[] {
  return readdirSync(here)
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
    .map((file) => ({
      stem: file.slice(0, -'.bench.ts'.length),
      async load(): Promise<BenchModule> {
        const mod: unknown = await import(pathToFileURL(join(here, file)).href);
        if (!isBenchModule(mod)) throw new Error(`${file} must export name, description and run(ctx)`);
        return mod;
      },
    }));
}

/**
 * The benchmarks to run: all, or those named. A file is loaded only when it may
 * be wanted, so one benchmark that fails to load does not stop the others.
 */
async function choose(wanted: string[]): Promise<{ chosen: BenchModule[]; failed: BenchResult[] }> {
  const all = candidates();
  const byStem = wanted.length ? all.filter((c) => wanted.includes(c.stem)) : all;
  const pending = wanted.length && byStem.length < wanted.length ? all : byStem;
  const chosen: BenchModule[] = [];
  const failed: BenchResult[] = [];
  for (const c of pending) {
    try {
      const mod = await c.load();
      if (!wanted.length || wanted.includes(mod.name)) chosen.push(mod);
    } catch (err) {
      if (!wanted.length || wanted.includes(c.stem))
        failed.push({
          bench: c.stem,
          figures: [],
          seconds: 0,
          error: `cannot load: ${err instanceof Error ? err.message : String(err)}`,
        });
    }
  }
  const unknown = wanted.filter(
    (w) => !chosen.some((m) => m.name === w) && !failed.some((f) => f.bench === w),
  );
  if (unknown.length)
    throw new Error(
      `unknown benchmark(s): ${unknown.join(', ')}; known files: ${all.map((c) => c.stem).join(', ')}`,
    );
  return { chosen, failed };
}

function format(n: number | undefined): string {
  if (n === undefined) return '';
  return Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100);
}

/** A plain-text table: one row per figure. */
export function table(results: BenchResult[]): string {
  const rows: string[][] = [
    ['benchmark', 'figure', 'value', 'unit', 'floor', 'ratio', 'target', 'ok', 'note'],
  ];
  for (const r of results) {
    if (r.error) rows.push([r.bench, 'ERROR', '', '', '', '', '', 'no', r.error]);
    for (const f of r.figures) {
      rows.push([
        r.bench,
        f.name,
        format(f.value),
        f.unit,
        format(f.floor),
        f.ratio === undefined ? '' : `${format(f.ratio)}x`,
        f.target ?? '',
        f.pass === undefined ? '' : f.pass ? 'yes' : 'NO',
        f.note ?? '',
      ]);
    }
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, c) => cell.padEnd(widths[c]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** One line of results.json: a figure of a benchmark, or its error. */
export type ResultEntry = { bench: string; [field: string]: unknown };

function previousResults(file: string): ResultEntry[] {
  if (!existsSync(file)) return [];
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const list = (parsed as { results?: unknown }).results;
    return Array.isArray(list)
      ? list.filter((r): r is ResultEntry => typeof (r as { bench?: unknown }).bench === 'string')
      : [];
  } catch {
    return [];
  }
}

/** An entry of the previous results.json that stays: of a benchmark not run now, or of a part of it not run now. */
export function keptFromBefore(
  entry: ResultEntry,
  ran: readonly BenchResult[],
  modules: readonly Pick<BenchModule, 'name' | 'keepsEarlier'>[],
): boolean {
  const now = ran.find((r) => r.bench === entry.bench);
  if (!now) return true;
  return modules.find((m) => m.name === entry.bench)?.keepsEarlier?.(entry) ?? false;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  let picked: Awaited<ReturnType<typeof choose>>;
  try {
    picked = await choose(wanted);
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(2);
  }
  const { chosen, failed } = picked;
  const ctx: BenchContext = { root: dirname(here), log: (message) => process.stderr.write(`  ${message}\n`) };
  const results: BenchResult[] = [...failed];
  for (const bench of chosen) {
    process.stderr.write(`${bench.name}: ${bench.description}\n`);
    const started = performance.now();
    let figures: Figure[] = [];
    let error: string | undefined;
    try {
      figures = await bench.run(ctx);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    results.push({
      bench: bench.name,
      figures,
      seconds: Math.round(performance.now() - started) / 1000,
      ...(error ? { error } : {}),
    });
  }
  process.stdout.write(`\n${table(results)}\n`);
  const file = join(here, 'results.json');
  const fresh = results.flatMap((r): ResultEntry[] =>
    r.error
      ? [{ bench: r.bench, name: 'error', error: r.error }]
      : r.figures.map((f) => ({ bench: r.bench, ...f })),
  );
  const out = {
    ranAt: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model ?? '',
      node: process.version,
      platform: process.platform,
    },
    // figures of benchmarks not run this time are kept from the previous run, and those of a benchmark's parts not run
    results: [...previousResults(file).filter((r) => keptFromBefore(r, results, chosen)), ...fresh],
  };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  process.stderr.write(`wrote ${join(here, 'results.json')}\n`);
  if (results.some((r) => r.error)) process.exitCode = 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) void main();
