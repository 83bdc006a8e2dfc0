import { describe, expect, it } from 'vitest';
import { previewSummary } from './preview-words.ts';

describe('the first line of a bulk preview', () => {
  it('says only what will be queued when nobody is skipped or refused', () => {
    expect(previewSummary({ queued: 5, skipped: 0, refused: 0 })).toBe('5 changes to queue.');
    expect(previewSummary({ queued: 1, skipped: 0, refused: 0 })).toBe('1 change to queue.');
  });

  it('names the people skipped, in plain words with the verb agreeing', () => {
    expect(previewSummary({ queued: 2, skipped: 1, refused: 0 })).toBe(
      '2 changes to queue; 1 person needs no change (skipped).',
    );
    expect(previewSummary({ queued: 0, skipped: 3, refused: 0 })).toBe(
      '0 changes to queue; 3 people need no change (skipped).',
    );
  });

  it('names the people refused, and both when there are both', () => {
    expect(previewSummary({ queued: 0, skipped: 0, refused: 1 })).toBe(
      '0 changes to queue; 1 person cannot be changed (not queued).',
    );
    expect(previewSummary({ queued: 4, skipped: 1, refused: 2 })).toBe(
      '4 changes to queue; 1 person needs no change (skipped); 2 people cannot be changed (not queued).',
    );
  });
});
