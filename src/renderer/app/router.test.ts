import { describe, expect, it } from 'vitest';
import { hrefFor, NOT_FOUND_ROUTE, parseHash } from './router.ts';

describe('hash routes', () => {
  it('read the route and its parameters', () => {
    expect(parseHash('#/users/42')).toEqual({ route: 'users', params: ['42'] });
    expect(parseHash('')).toEqual({ route: '', params: [] });
  });
  it('round-trip parameters that need escaping', () => {
    expect(parseHash(hrefFor('credentials', 'a/b c'))).toEqual({ route: 'credentials', params: ['a/b c'] });
  });
});

describe('an address that cannot be read', () => {
  it('leads to the "not found" page instead of failing the window', () => {
    expect(parseHash('#/users/%')).toEqual({ route: NOT_FOUND_ROUTE, params: [] });
    expect(parseHash('#/%E0%A4%A/42')).toEqual({ route: NOT_FOUND_ROUTE, params: [] });
  });
  it('is a page the app can show, reached from no tab', async () => {
    await import('./builtin-routes.tsx');
    const { findRoute, navRoutes } = await import('./routes.tsx');
    expect(findRoute(parseHash('#/users/%').route)?.label).toBe('Page not found');
    expect(navRoutes().map((route) => route.id)).not.toContain(NOT_FOUND_ROUTE);
  });
});
