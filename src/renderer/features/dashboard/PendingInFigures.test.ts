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

  it("names the header's count of changes waiting when shown as the platform holds them", () => {
    expect(pendingInFiguresWords(2, 'platform', 3)).toBe(
      'These figures are as the platform holds them, without the 3 changes not sent yet (the lists they open still include them).',
    );
  });

  it('says nothing when nothing waits to be sent', () => {
    expect(pendingInFiguresWords(0, 'with pending')).toBeNull();
  });

  it('says how many of the changes waiting it includes when some do not touch the figures', () => {
    expect(pendingInFiguresWords(13, 'with pending', 14)).toBe(
      'These figures include 13 of the 14 changes not sent yet; the other one does not change them.',
    );
    expect(pendingInFiguresWords(1, 'with pending', 4)).toBe(
      'These figures include 1 of the 4 changes not sent yet; the other 3 do not change them.',
    );
    expect(pendingInFiguresWords(3, 'with pending', 3)).toBe('These figures include 3 changes not sent yet.');
  });
});
