/**
 * V8's sampling heap profiler in a page, counting what the collector took as well as what stays: where a phase's
 * garbage is made (DevTools reads the `.heapprofile` written). Pure but for the CDP session.
 */
import type { Page } from '@playwright/test';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/** The sampled profile: its tree of allocating functions. */
export interface HeapProfile {
  head: HeapNode;
}

/** One sample every 32 kB allocated on average. */
const SAMPLING_BYTES = 32 * 1024;

/** Starts sampling the page's allocations; the returned function stops it and gives the profile. */
export async function startHeapSampling(page: Page): Promise<() => Promise<HeapProfile>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  await cdp.send('HeapProfiler.startSampling', {
    samplingInterval: SAMPLING_BYTES,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await cdp.send('HeapProfiler.stopSampling');
    await cdp.detach();
    return profile as unknown as HeapProfile;
  };
}

const nameOf = (frame: HeapNode['callFrame']) => {
  const file = frame.url.split(/[?#]/)[0]!.split('/').at(-1);
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
};

/** "12.3 MB allocated; most: fn a.js:3 4.1 MB, …": bytes by allocating function (self), the `top` of them. */
export function describeAllocations(profile: HeapProfile, top = 10): string {
  const bytes = new Map<string, number>();
  const walk = (node: HeapNode) => {
    const name = nameOf(node.callFrame);
    bytes.set(name, (bytes.get(name) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  const most = [...bytes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => `${name} ${mb(n)}`);
  return `${mb(total)} allocated; most: ${most.join(', ')}`;
}
