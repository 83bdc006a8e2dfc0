import { describe, expect, it } from 'vitest';
import { hrefFor, parseHash } from './router.ts';

describe('hash routes', () => {
  it('read the route and its parameters', () => {
    expect(parseHash('#/users/42')).toEqual({ route: 'users', params: ['42'] });
    expect(parseHash('')).toEqual({ route: '', params: [] });
  });
  it('round-trip parameters that need escaping', () => {
    expect(parseHash(hrefFor('credentials', 'a/b c'))).toEqual({ route: 'credentials', params: ['a/b c'] });
  });
});
