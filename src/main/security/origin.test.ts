import { describe, expect, it } from 'vitest';
import { APP_ENTRY_URL, isAppUrl } from './origin.ts';

describe('the app origin', () => {
  it('recognises its own pages', () => {
    expect(isAppUrl(APP_ENTRY_URL)).toBe(true);
    expect(isAppUrl('app://fieldbook/assets/index.js?x=1#users')).toBe(true);
    expect(isAppUrl('APP://FIELDBOOK/index.html')).toBe(true);
  });

  it.each([
    'app://fieldbook.evil/index.html',
    'app://fieldbook@evil/index.html',
    'app://evil@fieldbook/index.html',
    'app://fieldbook:8080/index.html',
    'http://fieldbook/index.html',
    'https://example.invalid/?next=app://fieldbook',
    'file:///app/fieldbook/index.html',
    'about:blank',
    'not a url',
  ])('treats %s as foreign', (url) => {
    expect(isAppUrl(url)).toBe(false);
  });
});
