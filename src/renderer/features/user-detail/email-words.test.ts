import { describe, expect, it } from 'vitest';
import { emailsSource, NO_EMAILS } from './email-words.ts';

describe('where a person’s e-mails come from, as their page says it', () => {
  it('names this laptop’s last sync, never "the cache", when they were not fetched', () => {
    expect(emailsSource(null)).toBe("As of this laptop's last sync.");
    expect(`${emailsSource(null)} ${NO_EMAILS}`).not.toMatch(/cache/i);
  });

  it('says when they were fetched from the site', () => {
    expect(emailsSource('2026-11-30T09:54:00Z')).toMatch(/^Fetched from the site .*2026.*\.$/);
  });
});
