import { describe, expect, it } from 'vitest';
import { personStatusChoice, personStatusMeaning } from './person-status.ts';

describe("a person's platform status in the coordinator's words", () => {
  it('never shows the platform\'s "Offline" without saying it means never signed in', () => {
    expect(personStatusChoice('Offline')).toBe('Offline (never signed in)');
    expect(personStatusMeaning('Offline')).toMatch(/active but has never been signed in/);
  });

  it('says what Inactive means, and leaves Active as it is', () => {
    expect(personStatusChoice('Inactive')).toBe('Inactive (cannot sign in)');
    expect(personStatusChoice('Active')).toBe('Active');
  });

  it('shows a status it does not know as it is, and an empty one as none', () => {
    expect(personStatusChoice('Expired')).toBe('Expired');
    expect(personStatusMeaning('Expired')).toBeUndefined();
    expect(personStatusChoice(' ')).toBe('(none)');
  });
});
