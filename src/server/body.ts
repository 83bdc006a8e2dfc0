/**
 * Reading a write's JSON body. Values are loosely typed in the wild (ids as
 * numeric strings, numbers where text is expected), so those are accepted;
 * anything else is 1001, a missing required field 1000. Pure.
 */
import { toIsoDate } from '../shared/dates.ts';
import { invalid, missing } from './status.ts';

export type Body = Record<string, unknown>;

/** No body is an empty object; a body that is not an object is refused. */
export function bodyObject(body: unknown): Body {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalid('The request body must be a JSON object.');
  return body as Body;
}

export function optionalText(body: Body, name: string, max = 200): string | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' && typeof v !== 'number') throw invalid(`${name} must be a string.`);
  const s = String(v).trim();
  if (s.length > max) throw invalid(`${name} must be at most ${max} characters.`);
  return s;
}

export function requiredFields(body: Body, names: string[]): void {
  const absent = names.filter(
    (n) =>
      body[n] === undefined ||
      body[n] === null ||
      (typeof body[n] === 'string' && (body[n] as string).trim() === ''),
  );
  if (absent.length) throw missing(absent);
}

export function optionalId(body: Body, name: string): number | undefined {
  const v = body[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
  if (typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) && Number(v) > 0) return Number(v);
  throw invalid(`${name} must be a positive integer.`);
}

/** A date as `MM/DD/YYYY` or `YYYY-MM-DD`, returned as ISO; '' clears it. */
export function optionalDate(body: Body, name: string): string | undefined {
  const v = optionalText(body, name, 40);
  if (v === undefined || v === '') return v;
  const iso = toIsoDate(v);
  if (!iso) throw invalid(`${name} must be a date as MM/DD/YYYY or YYYY-MM-DD.`);
  return iso;
}

/** One of `allowed`, matched case-insensitively, returned in its canonical spelling. */
export function optionalChoice(body: Body, name: string, allowed: readonly string[]): string | undefined {
  const v = optionalText(body, name, 50);
  if (v === undefined) return undefined;
  const match = allowed.find((a) => a.toLowerCase() === v.toLowerCase());
  if (!match) throw invalid(`${name} must be one of ${allowed.join(', ')}.`);
  return match;
}

export function nonEmpty(name: string, value: string | undefined): void {
  if (value === '') throw invalid(`${name} must not be empty.`);
}
