import { describe, expect, it } from 'vitest';
import { pageRead, shouldReadMore } from './read-more.ts';

describe('reading the next page of a long list', () => {
  it('reads on when the page read was full, though queued changes took rows out of it', () => {
    expect(shouldReadMore(pageRead(200, 200), 200, 181, 935)).toBe(true);
  });

  it('waits for the page of the current limit before asking for another (no page asked twice)', () => {
    expect(shouldReadMore(pageRead(200, 200), 400, 181, 935)).toBe(false);
    expect(shouldReadMore(undefined, 200, 0, 935)).toBe(false);
  });

  it('stops where the cache had fewer rows than asked, whatever the count says (no endless reading)', () => {
    expect(shouldReadMore(pageRead(400, 371), 400, 371, 380)).toBe(false);
  });

  it('stops once every counted row is shown', () => {
    expect(shouldReadMore(pageRead(200, 200), 200, 200, 200)).toBe(false);
  });

  it('never reads more of a list read whole', () => {
    expect(pageRead(Infinity, 5_000).more).toBe(false);
  });
});
