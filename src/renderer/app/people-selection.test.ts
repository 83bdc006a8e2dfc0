import { describe, expect, it } from 'vitest';
import { createSelectionStore, emptySelection, nextSelection, selectedNotShown } from './people-selection.ts';

const order = [10, 20, 30, 40, 50];
const ids = (s: { selected: ReadonlySet<number> }) => [...s.selected].sort((a, b) => a - b);

describe('selecting people in a list', () => {
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

describe('the selected people a list does not show', () => {
  it('are those a filter or a queued change took out of the list', () => {
    expect(selectedNotShown(new Set([10, 20, 30]), new Set([20, 40]))).toEqual([10, 30]);
  });

  it('are none when every selected person is in the list', () => {
    expect(selectedNotShown(new Set([20]), new Set([20, 40]))).toEqual([]);
  });

  it('can be unselected, leaving the others selected', () => {
    const store = createSelectionStore();
    store.getState().selectAll([10, 20, 30]);
    store.getState().drop([10, 30]);
    expect(ids(store.getState())).toEqual([20]);
  });

  it('each list has its own selection', () => {
    const a = createSelectionStore();
    const b = createSelectionStore();
    a.getState().selectAll([10]);
    expect(b.getState().selected.size).toBe(0);
  });
});
