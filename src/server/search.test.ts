import { describe, expect, it } from 'vitest';
import { ResponseCode } from '../shared/api/codes.ts';
import { dateRange, searchConditions, type SearchSpec } from './search.ts';
import { ApiError } from './status.ts';

const spec: SearchSpec = {
  firstname: { type: 'text', sql: 'u.firstname' },
  attachmentcount: { type: 'int', sql: 'a.attachmentcount' },
  isprimary: { type: 'bool', sql: 'e.isprimary' },
  coursestatus: { type: 'text', sql: 't.course_status', alias: (raw) => ({ '1': 'active' })[raw] },
  ...dateRange('duedate', 't.due_date'),
};

function codeOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (err) {
    return err instanceof ApiError ? err.code : undefined;
  }
  return undefined;
}

const q = (s: string): URLSearchParams => new URLSearchParams(s);

describe('search criteria', () => {
  it('matches text case-insensitively, whether sent in q or as a parameter', () => {
    const fromQ = searchConditions(q(`q=${encodeURIComponent('{"firstname":"JoSé"}')}`), spec);
    const fromParam = searchConditions(q('firstname=JOSÉ'), spec);
    expect(fromQ).toEqual({ where: ['fold(u.firstname) = ?'], params: ['josé'] });
    expect(fromParam).toEqual(fromQ);
  });

  it('combines several criteria', () => {
    const c = searchConditions(q(`q=${encodeURIComponent('{"firstname":"ann"}')}&attachmentcount=2`), spec);
    expect(c.where).toHaveLength(2);
    expect(c.params).toEqual(['ann', 2]);
  });

  it('ignores paging parameters', () => {
    expect(searchConditions(q('startrow=5&limit=10'), spec).where).toEqual([]);
  });

  it('bounds date ranges by the …start and …end fields, in either input format', () => {
    const c = searchConditions(q('duedatestart=01/02/2026&duedateend=2026-03-04'), spec);
    expect(c.params).toEqual(['2026-01-02', '2026-03-04']);
    expect(c.where[0]).toContain('>= ?');
    expect(c.where[1]).toContain('<= ?');
  });

  it('reads booleans and numeric aliases', () => {
    expect(searchConditions(q('isprimary=true'), spec).params).toEqual([1]);
    expect(searchConditions(q('coursestatus=1'), spec).params).toEqual(['active']);
  });

  it('refuses q that is not JSON, or not an object, with 902', () => {
    expect(codeOf(() => searchConditions(q('q={oops'), spec))).toBe(ResponseCode.InvalidSearchJson);
    expect(codeOf(() => searchConditions(q('q=[1]'), spec))).toBe(ResponseCode.InvalidSearchJson);
  });

  it('refuses an unknown field or a malformed value with 903', () => {
    expect(codeOf(() => searchConditions(q('shoesize=9'), spec))).toBe(ResponseCode.InvalidSearchParams);
    expect(codeOf(() => searchConditions(q('attachmentcount=two'), spec))).toBe(
      ResponseCode.InvalidSearchParams,
    );
    expect(codeOf(() => searchConditions(q('duedate=tomorrow'), spec))).toBe(
      ResponseCode.InvalidSearchParams,
    );
    expect(codeOf(() => searchConditions(q(`q=${encodeURIComponent('{"firstname":{"x":1}}')}`), spec))).toBe(
      ResponseCode.InvalidSearchParams,
    );
  });

  it('refuses any search on a route without search fields with 904', () => {
    expect(codeOf(() => searchConditions(q('q={}'), null))).toBe(ResponseCode.SearchNotAccepted);
    expect(codeOf(() => searchConditions(q('firstname=x'), null))).toBe(ResponseCode.SearchNotAccepted);
    expect(searchConditions(q('limit=5'), null).where).toEqual([]);
  });
});
