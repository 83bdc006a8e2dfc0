/**
 * Tabs of features built outside this folder: one side-effect import each, e.g.
 *   import '../features/outbox/route.tsx';
 * (each such file calls `registerRoute` from ./routes.tsx).
 */
export {};
