import { describe, expect, it } from 'vitest';
import { pendingInFiguresWords } from './PendingInFigures.tsx';

describe('what the dashboard says of the changes not sent yet', () => {
  it('says how many its figures include', () => {
    expect(pendingInFiguresWords(3, 'with pending')).toBe('These figures include 3 changes not sent yet.');
  });

  it('says the figures leave them out when shown as the platform holds them', () => {
    expect(pendingInFiguresWords(1, 'platform')).toBe(
      'These figures are as the platform holds them, without the 1 change not sent yet (the lists they open still include it).',
    );
  });

  it('says nothing when nothing waits to be sent', () => {
    expect(pendingInFiguresWords(0, 'with pending')).toBeNull();
  });
});
