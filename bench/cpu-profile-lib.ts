/**
 * A V8 CPU profile (CDP `Profiler.stop`, the `.cpuprofile` DevTools reads)
 * summed by function: where a page's main thread spent its time. Pure.
 */

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: CpuProfileNode[];
  /** microseconds, on the clock of Chromium's trace */
  startTime?: number;
  /** the node sampled at each tick */
  samples?: number[];
  /** microseconds since the previous sample, one per sample */
  timeDeltas?: number[];
}

/** "(program)" and friends, or "name file.ts:12" (the file's last path part, 1-based line). */
function label(frame: CpuProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  if (!frame.url) return name;
  const file = frame.url.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1) ?? frame.url;
  return `${name} ${file}:${frame.lineNumber + 1}`;
}

/** Self time per function, milliseconds, most first: the `top` of them and the total sampled. */
export function selfTimeByFunction(
  profile: CpuProfile,
  top = 8,
): { totalMs: number; top: [string, number][] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, label(n.callFrame)]));
  const ms = new Map<string, number>();
  let total = 0;
  const samples = profile.samples ?? [];
  samples.forEach((id, i) => {
    const dt = (profile.timeDeltas?.[i] ?? 0) / 1000;
    total += dt;
    const name = byId.get(id) ?? '(unknown)';
    ms.set(name, (ms.get(name) ?? 0) + dt);
  });
  const sorted = [...ms]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, t]): [string, number] => [name, Math.round(t)]);
  return { totalMs: Math.round(total), top: sorted };
}

/** "fn a.ts:3 120 ms, (garbage collector) 80 ms, …" */
export function describeSelfTime(summary: { totalMs: number; top: [string, number][] }): string {
  return `${summary.totalMs} ms sampled; most self time: ${summary.top.map(([name, t]) => `${name} ${t} ms`).join(', ')}`;
}

/** The profile's samples between two times of the trace's clock (microseconds) only. */
export function profileBetween(profile: CpuProfile, fromUs: number, toUs: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime ?? 0;
  (profile.samples ?? []).forEach((id, i) => {
    const dt = profile.timeDeltas?.[i] ?? 0;
    at += dt;
    if (at >= fromUs && at <= toUs) {
      samples.push(id);
      timeDeltas.push(dt);
    }
  });
  return { nodes: profile.nodes, samples, timeDeltas };
}
