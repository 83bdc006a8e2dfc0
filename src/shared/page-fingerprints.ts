/**
 * Page fingerprints: what each page of each sync task held the last time it was
 * written into the cache. A resync that fetches a page hashing the same skips
 * the page's work (secret scan, normalising, sending, reading, comparing and
 * writing): the cache already holds it. Pure.
 */
import type { PageFingerprint } from './ipc.ts';

/** The map key of a task's page. */
export function pageKey(taskId: string, startrow: number): string {
  return `${taskId}@${startrow}`;
}

export function fingerprintMap(list: readonly PageFingerprint[] | undefined): Map<string, string> {
  return new Map((list ?? []).map((f) => [pageKey(f.taskId, f.startrow), f.hash]));
}
