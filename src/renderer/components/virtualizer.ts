/**
 * The list virtualiser (TanStack Virtual), under our own name. Its hook returns
 * fresh functions each render, so components using it opt out of automatic
 * memoisation with 'use no memo'.
 */
export { useVirtualizer as useRowVirtualizer } from '@tanstack/react-virtual';
