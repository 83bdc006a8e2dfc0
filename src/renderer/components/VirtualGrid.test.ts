import { describe, expect, it } from 'vitest';
import { columnTrack } from './VirtualGrid.tsx';

describe('a grid column is never narrower than its header', () => {
  it('widens a fixed width to the header, in em (the same in the bold header row and the rows)', () => {
    expect(columnTrack('6.5rem', '≤ 30 days')).toBe('max(6.5rem, 7.4em)');
  });

  it('widens a column to its longest value, up to a limit, where it fits its content', () => {
    expect(columnTrack('minmax(10rem, 1.5fr)', 'Site', 29)).toBe(
      'minmax(max(10rem, min(19.2em, 22rem, 18vw)), 1.5fr)',
    );
  });

  it('gives a flexible column the header as its minimum', () => {
    expect(columnTrack('minmax(8rem, 1.5fr)', 'Credential')).toBe('minmax(max(8rem, 8.1em), 1.5fr)');
    expect(columnTrack('2fr', 'Name')).toBe('minmax(4.3em, 2fr)');
  });
});
