/**
 * Search criteria of list routes, from `q` (a JSON object) and per-field query
 * parameters, turned into SQL conditions. Text is case-insensitive equality,
 * numbers match exactly, dates match the day or bound a range. Pure.
 */
import { ResponseCode } from '../shared/api/codes.ts';
import { toIsoDate } from '../shared/dates.ts';
import { ApiError } from './status.ts';
import type { SqlValue } from './store.ts';

export type SearchFieldType = 'text' | 'int' | 'date' | 'bool';

export interface SearchField {
  type: SearchFieldType;
  /** SQL expression the value is compared with */
  sql: string;
  /** comparison, for the ends of a range (default: equality) */
  op?: '=' | '>=' | '<=' | '<' | '>';
  /** turn an accepted alternative spelling into the stored value (e.g. numeric course status) */
  alias?: (raw: string) => string | undefined;
}

export type SearchSpec = Record<string, SearchField>;

export interface SqlCondition {
  where: string[];
  params: SqlValue[];
}

/** Query parameters that are never search fields. */
export const PAGING_PARAMS: ReadonlySet<string> = new Set(['startrow', 'limit']);

type Raw = string | number | boolean;

function searchEntries(query: URLSearchParams): { entries: [string, Raw][]; hasQ: boolean } {
  const entries: [string, Raw][] = [];
  let hasQ = false;
  for (const [key, value] of query) {
    if (PAGING_PARAMS.has(key)) continue;
    if (key !== 'q') {
      entries.push([key, value]);
      continue;
    }
    hasQ = true;
    let parsed: unknown;
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new ApiError(ResponseCode.InvalidSearchJson, 'The q parameter is not valid JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ApiError(
        ResponseCode.InvalidSearchJson,
        'The q parameter must be a JSON object of field-value pairs.',
      );
    }
    for (const [field, v] of Object.entries(parsed)) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new ApiError(
          ResponseCode.InvalidSearchParams,
          `The value of ${field} must be a string, a number or a boolean.`,
        );
      }
      entries.push([field, v]);
    }
  }
  return { entries, hasQ };
}

function badValue(field: string, expected: string): ApiError {
  return new ApiError(ResponseCode.InvalidSearchParams, `The value of ${field} is not ${expected}.`);
}

function condition(field: string, spec: SearchField, raw: Raw): { sql: string; param: SqlValue } {
  const op = spec.op ?? '=';
  const text = String(raw).trim();
  switch (spec.type) {
    case 'text': {
      const value = spec.alias?.(text) ?? text;
      return { sql: `fold(${spec.sql}) = ?`, param: value.toLocaleLowerCase('en-US') };
    }
    case 'int': {
      if (!/^-?\d{1,15}$/.test(text)) throw badValue(field, 'an integer');
      return { sql: `${spec.sql} ${op} ?`, param: Number(text) };
    }
    case 'date': {
      const iso = toIsoDate(text);
      if (!iso) throw badValue(field, 'a date (MM/DD/YYYY or YYYY-MM-DD)');
      // unset dates ('') never fall inside a range
      return {
        sql: op === '=' ? `${spec.sql} = ?` : `(${spec.sql} <> '' AND ${spec.sql} ${op} ?)`,
        param: iso,
      };
    }
    case 'bool': {
      const t = text.toLowerCase();
      if (t === 'true' || t === '1' || t === 'yes') return { sql: `${spec.sql} = ?`, param: 1 };
      if (t === 'false' || t === '0' || t === 'no') return { sql: `${spec.sql} = ?`, param: 0 };
      throw badValue(field, 'a boolean');
    }
  }
}

/**
 * The SQL conditions for a request's search criteria.
 * Errors: 902 (`q` not a JSON object), 903 (unknown field or bad value),
 * 904 (search on a route that accepts none).
 */
export function searchConditions(query: URLSearchParams, spec: SearchSpec | null): SqlCondition {
  const { entries, hasQ } = searchEntries(query);
  const out: SqlCondition = { where: [], params: [] };
  if (!spec) {
    if (hasQ || entries.length)
      throw new ApiError(ResponseCode.SearchNotAccepted, 'This route does not accept search parameters.');
    return out;
  }
  for (const [name, raw] of entries) {
    const field = spec[name.toLowerCase()];
    if (!field) {
      throw new ApiError(
        ResponseCode.InvalidSearchParams,
        `Unknown search field ${name}. This route accepts: ${Object.keys(spec).join(', ')}.`,
      );
    }
    const c = condition(name, field, raw);
    out.where.push(c.sql);
    out.params.push(c.param);
  }
  return out;
}

/** A date field with its exact match and the `…start` / `…end` ends of its range. */
export function dateRange(name: string, sql: string): SearchSpec {
  return {
    [name]: { type: 'date', sql },
    [`${name}start`]: { type: 'date', sql, op: '>=' },
    [`${name}end`]: { type: 'date', sql, op: '<=' },
  };
}
