/**
 * Inside a grid, controls of a row are not tab stops of their own (the grid is
 * one): the grid's keys reach them instead (Delete presses a pending row's Undo).
 */
import { createContext, useContext } from 'react';

export const InsideGrid = createContext(false);

/** The tabIndex of a control in a row: out of the tab order inside a grid. */
export function useRowControlTabIndex(): -1 | undefined {
  return useContext(InsideGrid) ? -1 : undefined;
}
