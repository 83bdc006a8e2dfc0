import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors.ts';
import { forgetSecret, registerSecret } from '../secrets/scrub.ts';
import { FieldbookError, toAppError } from './errors.ts';

const token = 'tok-abcdef-123456';
afterEach(() => forgetSecret(token));

describe("main's one error normaliser", () => {
  it("keeps the API client's error whole: code, status and message", () => {
    const err = new ApiError({
      code: 'access-denied',
      message: 'No access.',
      httpcode: 401,
      statuscode: 800,
    });
    expect(toAppError(err)).toEqual({
      code: 'access-denied',
      message: 'No access.',
      httpcode: 401,
      statuscode: 800,
    });
  });

  it("keeps a handler's deliberate failure", () => {
    expect(toAppError(new FieldbookError('busy', 'A sync is already running.'))).toEqual({
      code: 'busy',
      message: 'A sync is already running.',
    });
  });

  it('keeps the AppError of any error that carries one (a replay read failure)', () => {
    const err = Object.assign(new Error('x'), {
      appError: { code: 'malformed-response', message: 'Unreadable.' },
    });
    expect(toAppError(err)).toEqual({ code: 'malformed-response', message: 'Unreadable.' });
  });

  it('masks a known token in the message it keeps', () => {
    registerSecret(token);
    expect(toAppError(new FieldbookError('rejected', `bad token ${token}`)).message).not.toContain(token);
  });

  it('reports an abort as cancelled', () => {
    expect(toAppError(new DOMException('aborted', 'AbortError')).code).toBe('cancelled');
  });

  it('hides anything else behind the generic internal error, never its message', () => {
    expect(toAppError(new Error(`boom at /home/x ${token}`))).toEqual({
      code: 'internal',
      message: expect.not.stringContaining('boom'),
    });
    expect(toAppError('a string').code).toBe('internal');
  });

  it("uses the caller's fallback for anything else", () => {
    expect(toAppError(new TypeError('fetch failed'), { code: 'network', message: 'Unreachable.' })).toEqual({
      code: 'network',
      message: 'Unreachable.',
    });
  });

  it('does not take a malformed appError property at its word', () => {
    expect(toAppError(Object.assign(new Error('x'), { appError: { code: 7 } })).code).toBe('internal');
  });
});
