import { describe, expect, it } from 'vitest';
import { columnTrack } from './VirtualGrid.tsx';

describe('a grid column is never narrower than its header', () => {
  it('widens a fixed width to the header', () => {
    expect(columnTrack('6.5rem', '≤ 30 days')).toBe('max(6.5rem, 12ch)');
  });

  it('gives a flexible column the header as its minimum', () => {
    expect(columnTrack('minmax(8rem, 1.5fr)', 'Credential')).toBe('minmax(max(8rem, 13ch), 1.5fr)');
    expect(columnTrack('2fr', 'Name')).toBe('minmax(7ch, 2fr)');
  });
});
