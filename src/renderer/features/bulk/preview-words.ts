/** The first line of a bulk preview: what will be queued, and only the skipped or refused there are. */
import { plural } from '../../app/words.ts';

export interface PreviewCounts {
  /** changes the preview will queue */
  queued: number;
  /** people already as the action would make them */
  skipped: number;
  /** people the platform would refuse the change for */
  refused: number;
}

/**
 * "5 changes to queue.", "2 changes to queue; 1 person needs no change (skipped)."; a part that counts nobody
 * is left out ("0 people already as chosen" told the coordinator nothing).
 */
export function previewSummary({ queued, skipped, refused }: PreviewCounts): string {
  const parts = [`${plural(queued, 'change')} to queue`];
  if (skipped > 0)
    parts.push(
      `${plural(skipped, 'person', 'people')} ${skipped === 1 ? 'needs' : 'need'} no change (skipped)`,
    );
  if (refused > 0) parts.push(`${plural(refused, 'person', 'people')} cannot be changed (not queued)`);
  return `${parts.join('; ')}.`;
}
