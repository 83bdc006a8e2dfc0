/**
 * The snapshot's phases as User Timing marks (history/snapshot.ts), each placed where its phase ends: DevTools'
 * Performance panel shows them, and the history benchmark reads them to split a snapshot's time. A mark replaces the
 * previous one of its name, so a long session keeps one of each.
 */
export const PHASE_MARK = 'history-snapshot:';

/** Marks the end of a phase of the snapshot, with how many people (or rows) it went through when it says. */
export function phaseEnded(name: string, count?: number): void {
  performance.clearMarks(PHASE_MARK + name);
  performance.mark(PHASE_MARK + name, count === undefined ? {} : { detail: count });
}
