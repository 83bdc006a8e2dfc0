import { describe, expect, it } from 'vitest';
import { credentialState, trainingState } from './compliance.ts';
import { formatDate, formatProgress } from './format.ts';

const today = '2026-03-01';
const cred = (expirationIso: string, extra: Partial<{ startIso: string; expirationdate: string }> = {}) => ({
  startIso: '2025-01-01',
  startdate: '01/01/2025',
  expirationIso,
  expirationdate: expirationIso ? 'x' : '',
  ...extra,
});

describe('credential state', () => {
  it('is expired the day after its expiration date', () => {
    expect(credentialState(cred('2026-02-28'), today, 30)).toBe('expired');
  });
  it('is expiring when it expires today or within the window', () => {
    expect(credentialState(cred('2026-03-01'), today, 30)).toBe('expiring');
    expect(credentialState(cred('2026-03-31'), today, 30)).toBe('expiring');
  });
  it('is valid beyond the window', () => {
    expect(credentialState(cred('2026-04-01'), today, 30)).toBe('valid');
  });
  it('has missing dates when the expiration is unset or unreadable', () => {
    expect(credentialState(cred(''), today, 30)).toBe('missing-dates');
    expect(
      credentialState(cred('', { expirationdate: '13/45/2026' }), today, 30, { expiration: false }),
    ).toBe('missing-dates');
  });
  it('never expires when its credential requires no expiration date', () => {
    expect(credentialState(cred(''), today, 30, { expiration: false })).toBe('valid');
  });
  it('has missing dates when a required start date is unset', () => {
    expect(
      credentialState(cred('2027-01-01', { startIso: '' }), today, 30, { start: true, expiration: true }),
    ).toBe('missing-dates');
  });
});

describe('training state', () => {
  const t = (dueIso: string, course_status = 'active') => ({ dueIso, course_status });
  it('is done when completed, even past its due date', () => {
    expect(trainingState(t('2020-01-01', 'Completed'), today, 14)).toBe('done');
  });
  it('is overdue after its due date', () => {
    expect(trainingState(t('2026-02-28'), today, 14)).toBe('overdue');
  });
  it('is due soon today and within the window, on track after it', () => {
    expect(trainingState(t('2026-03-01'), today, 14)).toBe('due-soon');
    expect(trainingState(t('2026-03-15'), today, 14)).toBe('due-soon');
    expect(trainingState(t('2026-03-16'), today, 14)).toBe('on-track');
  });
  it('keeps unknown statuses as not done', () => {
    expect(trainingState(t('2026-02-01', 'archived'), today, 14)).toBe('overdue');
  });
  it('has no due date when none is readable', () => {
    expect(trainingState(t(''), today, 14)).toBe('no-due-date');
  });
});

describe('display helpers', () => {
  it('shows a calendar date in the given locale without shifting the day', () => {
    expect(formatDate('2026-03-01', 'en-US')).toBe('Mar 1, 2026');
    expect(formatDate('2026-03-01', 'de-DE')).toBe('01.03.2026');
  });
  it('shows "No date" for an unset date', () => {
    expect(formatDate('', 'en-US')).toBe('No date');
  });
  it('says "N of M" only when the total is known', () => {
    expect(formatProgress(1200, 5000, 'en-US')).toBe('1,200 of 5,000');
    expect(formatProgress(1200, null, 'en-US')).toBe('1,200');
    expect(formatProgress(1200, 1000, 'en-US')).toBe('1,200');
  });
});
