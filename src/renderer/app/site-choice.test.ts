import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberSite, rememberedSite } from './site-choice.ts';

beforeEach(() => {
  const kept = new Map<string, string>();
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => kept.get(k) ?? null,
    setItem: (k: string, v: string) => {
      kept.set(k, v);
    },
    removeItem: (k: string) => {
      kept.delete(k);
    },
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('the site the coordinator looks after', () => {
  it('is remembered per profile: choosing a site in one leaves the other on every site', () => {
    rememberSite('office', 7);
    expect(rememberedSite('office')).toBe(7);
    expect(rememberedSite('laptop')).toBeNull();
  });

  it('goes back to every site when "All sites" is chosen, or when what was kept cannot be read', () => {
    rememberSite('office', 7);
    rememberSite('office', null);
    expect(rememberedSite('office')).toBeNull();
    localStorage.setItem('fieldbook.site.office', 'Riverside');
    expect(rememberedSite('office')).toBeNull();
  });
});
