/**
 * The history benchmark's simulated year, pure: which records a day of ordinary work changes on the platform
 * (renewals in place, training completed and assigned, hires, leavers), decided from each record's own key and the
 * day, so every run of the benchmark makes the same changes; and the year's figures from the bytes measured.
 */
import { addDaysIso } from '../src/shared/dates.ts';

/** A number in [0, 1) from a key and a salt (FNV-1a): the simulation's dice, the same in every run. */
export function chance(key: string | number, salt: string): number {
  let h = 0x811c9dc5;
  const text = `${salt}:${key}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}

/** Of the credentials that come due, this share is never renewed (the holder lapses or leaves it). */
const NEVER_RENEWED = 0.1;
/** A credential is renewed from this many days before its expiry to this many after (a late renewal). */
export const RENEW_FROM_DAYS_BEFORE = 30;
export const RENEW_UNTIL_DAYS_AFTER = 15;
/** A renewal's validity when the old dates give none. */
const DEFAULT_VALIDITY_DAYS = 365;

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/**
 * The new dates of a credential assignment renewed in place on `day` (the platform updates the same assignment),
 * or null when it is not renewed that day: each assignment has its own day within the renewal window around its
 * expiry, and one in ten is never renewed. A renewal keeps the old validity (a year when the old dates give none).
 */
export function renewalOn(
  a: { id: string; startIso: string; expirationIso: string },
  day: string,
): { startIso: string; expirationIso: string } | null {
  if (!a.expirationIso || chance(a.id, 'never renewed') < NEVER_RENEWED) return null;
  const window = RENEW_FROM_DAYS_BEFORE + RENEW_UNTIL_DAYS_AFTER + 1;
  const lead = RENEW_FROM_DAYS_BEFORE - Math.floor(chance(`${a.id}|${a.expirationIso}`, 'lead') * window);
  if (addDaysIso(a.expirationIso, -lead) !== day) return null;
  const validity = a.startIso ? daysBetween(a.startIso, a.expirationIso) : 0;
  return { startIso: day, expirationIso: addDaysIso(day, validity > 0 ? validity : DEFAULT_VALIDITY_DAYS) };
}

/** Of the training that comes due, this share is never completed. */
const NEVER_COMPLETED = 0.3;
export const COMPLETE_FROM_DAYS_BEFORE = 60;
export const COMPLETE_UNTIL_DAYS_AFTER = 20;

/**
 * Whether training still open is completed on `day`: each on its own day from 60 days before its due date to 20
 * after; three in ten never are.
 */
export function completedOn(t: { transcriptid: number; dueIso: string }, day: string): boolean {
  if (!t.dueIso || chance(t.transcriptid, 'never completed') < NEVER_COMPLETED) return false;
  const window = COMPLETE_FROM_DAYS_BEFORE + COMPLETE_UNTIL_DAYS_AFTER + 1;
  const lead = COMPLETE_FROM_DAYS_BEFORE - Math.floor(chance(t.transcriptid, 'lead') * window);
  return addDaysIso(t.dueIso, -lead) === day;
}

/**
 * How many of something that happens `perDay` times a day on average happen on day `index` (0, 1, ...): whole
 * numbers that add up.
 */
export function countOnDay(perDay: number, index: number): number {
  return Math.floor((index + 1) * perDay + 1e-9) - Math.floor(index * perDay + 1e-9);
}

/** The rates of the simulated year, per day. */
export interface DayRates {
  /** new training assignments (the dataset's own pace: its training was assigned over 400 days) */
  training: number;
  hires: number;
  leavers: number;
}

/** People leave and are hired at this share of the headcount a year. */
const TURNOVER_PER_YEAR = 0.15;
/** The generator assigns a person's training over the last 400 days (src/server/generate.ts). */
const TRAINING_ASSIGNED_OVER_DAYS = 400;

export function dayRates(people: number, training: number): DayRates {
  const turnover = (people * TURNOVER_PER_YEAR) / 365;
  return { training: training / TRAINING_ASSIGNED_OVER_DAYS, hires: turnover, leavers: turnover };
}

/**
 * Bytes of a row as JSON text in UTF-8, what the benchmark counts as a history row's size; bytes stored as such (a
 * packed, deflated field) count as their own length, not as their JSON text.
 */
export function jsonBytes(row: unknown): number {
  let binary = 0;
  const text = JSON.stringify(row, (_key, value: unknown) => {
    if (!(value instanceof Uint8Array)) return value;
    binary += value.byteLength;
    return '';
  });
  return new TextEncoder().encode(text).length + binary;
}

/** The history's size after a year of daily syncs. */
export interface YearSize {
  bytesPerYear: number;
  perSitePerYear: number;
  perThousandPeoplePerYear: number;
}

/**
 * A year of daily syncs from a measured start: `first` bytes after the first sync (every person written once),
 * then `days` daily syncs that added `daily` bytes in all, carried on to 365 syncs at the same pace.
 */
export function yearFromDays(m: {
  first: number;
  daily: number;
  days: number;
  people: number;
  sites: number;
}): YearSize {
  const bytesPerYear = m.first + (m.daily / m.days) * (365 - 1);
  return {
    bytesPerYear,
    perSitePerYear: bytesPerYear / m.sites,
    perThousandPeoplePerYear: (bytesPerYear * 1000) / m.people,
  };
}

export const MB = 1024 * 1024;
