import { describe, expect, it } from 'vitest';
import { ResponseCode } from '../shared/api/codes.ts';
import { nextPageUrl, parsePaging } from './paging.ts';
import { ApiError } from './status.ts';

const q = (s: string): URLSearchParams => new URLSearchParams(s);

describe('paging', () => {
  it('starts at row 1 with 100 records when nothing is asked', () => {
    expect(parsePaging(q(''))).toEqual({ startrow: 1, limit: 100 });
  });

  it('clamps the limit to 1000', () => {
    expect(parsePaging(q('limit=5000')).limit).toBe(1000);
  });

  it('refuses a startrow or limit that is not a positive integer with 1001', () => {
    for (const bad of ['startrow=0', 'startrow=-1', 'limit=abc', 'limit=0', 'startrow=1.5']) {
      try {
        parsePaging(q(bad));
        expect.unreachable(bad);
      } catch (err) {
        expect(err instanceof ApiError && err.code).toBe(ResponseCode.ValidationFailed);
      }
    }
  });

  it('continues the same request with the next startrow and the same limit', () => {
    const next = nextPageUrl('http://127.0.0.1:1/v1', '/users', q('status=Active&startrow=11&limit=10'), {
      startrow: 11,
      limit: 10,
    });
    expect(next).toBe('http://127.0.0.1:1/v1/users?status=Active&startrow=21&limit=10');
  });
});
