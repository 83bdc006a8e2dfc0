import { describe, expect, it } from 'vitest';
import { emptySelection, nextSelection } from './selection.ts';

const order = [10, 20, 30, 40, 50];
const ids = (s: { selected: ReadonlySet<number> }) => [...s.selected].sort((a, b) => a - b);

describe('selecting users', () => {
  it('a click selects only that user', () => {
    const s = nextSelection({ selected: new Set([10, 20]), anchor: 10 }, order, 2, 'only');
    expect(ids(s)).toEqual([30]);
  });

  it('ctrl/cmd-click adds a user, and removes them when clicked again', () => {
    let s = nextSelection(emptySelection, order, 0, 'only');
    s = nextSelection(s, order, 3, 'toggle');
    expect(ids(s)).toEqual([10, 40]);
    s = nextSelection(s, order, 0, 'toggle');
    expect(ids(s)).toEqual([40]);
  });

  it('shift-click selects the range from the last clicked user, in list order', () => {
    let s = nextSelection(emptySelection, order, 3, 'only');
    s = nextSelection(s, order, 1, 'range');
    expect(ids(s)).toEqual([20, 30, 40]);
  });

  it('shift-arrow from the keyboard row selects both rows and those between', () => {
    expect(ids(nextSelection(emptySelection, order, 3, 'range', 1))).toEqual([20, 30, 40]);
  });

  it('shift-click without an anchor selects just that user', () => {
    expect(ids(nextSelection(emptySelection, order, 2, 'range'))).toEqual([30]);
  });
});
