import { describe, expect, it } from 'vitest';
import type { HandlerContext, Handlers } from '../../shared/ipc.ts';
import { ApiError } from '../api/errors.ts';
import { forgetSecret, registerSecret } from '../secrets/scrub.ts';
import { dispatch } from './dispatch.ts';
import { FieldbookError } from './errors.ts';

const ctx: HandlerContext = { emit: () => undefined };
const quiet = () => undefined;

function handlersWith(overrides: Partial<Handlers>): Handlers {
  return new Proxy(overrides as Handlers, {
    get: (target, key) => (target as Record<string | symbol, unknown>)[key] ?? (async () => null),
  });
}

describe('dispatch', () => {
  it('refuses a channel that is not in the contract', async () => {
    const res = await dispatch(handlersWith({}), 'fs:readFile', {}, ctx, quiet);
    expect(res).toEqual({ ok: false, error: { code: 'unknown-channel', message: expect.any(String) } });
  });

  it('refuses inherited object keys as channels', async () => {
    const res = await dispatch(handlersWith({}), 'toString', undefined, ctx, quiet);
    expect(res.ok ? null : res.error.code).toBe('unknown-channel');
  });

  it('refuses a malformed argument with a message naming the field', async () => {
    const res = await dispatch(handlersWith({}), 'sync:ack', { syncId: 's', pageIds: [-1] }, ctx, quiet);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('invalid-argument');
      expect(res.error.message).toContain('pageIds');
    }
  });

  it('passes the parsed argument to the handler and returns its value', async () => {
    const res = await dispatch(
      handlersWith({ 'users:detail': async (arg) => ({ userid: arg.userid, emails: [], fetchedAt: 'now' }) }),
      'users:detail',
      { userid: 4 },
      ctx,
      quiet,
    );
    expect(res).toEqual({ ok: true, value: { userid: 4, emails: [], fetchedAt: 'now' } });
  });

  it('carries an API error whole, with its code and status', async () => {
    const apiError = new ApiError({
      code: 'access-denied',
      message: 'No access.',
      httpcode: 401,
      statuscode: 800,
    });
    const res = await dispatch(
      handlersWith({ 'connection:probe': async () => Promise.reject(apiError) }),
      'connection:probe',
      undefined,
      ctx,
      quiet,
    );
    expect(res).toEqual({
      ok: false,
      error: { code: 'access-denied', message: 'No access.', httpcode: 401, statuscode: 800 },
    });
  });

  it('hides an unexpected error behind a generic message, never a stack', async () => {
    const logged: string[] = [];
    const res = await dispatch(
      handlersWith({ 'profiles:list': async () => Promise.reject(new Error('boom at /secret/path.ts:12')) }),
      'profiles:list',
      undefined,
      ctx,
      (m) => logged.push(m),
    );
    expect(res.ok ? null : res.error.code).toBe('internal');
    expect(JSON.stringify(res)).not.toContain('boom');
    expect(logged[0]).toContain('boom');
  });

  it('scrubs a known token from every error message and status body', async () => {
    const token = 'tok-SECRET-abcdef-123456';
    registerSecret(token);
    try {
      const echo = new ApiError({
        code: 'rejected',
        message: `The API refused: bad token ${token}`,
        response: {
          httpcode: 400,
          statuscode: 1001,
          status: 'x',
          developermessage: `token ${token} invalid`,
          moreinfo: '',
        },
      });
      const res = await dispatch(
        handlersWith({ 'connection:probe': async () => Promise.reject(echo) }),
        'connection:probe',
        undefined,
        ctx,
        quiet,
      );
      expect(JSON.stringify(res)).not.toContain(token);
      const logged: string[] = [];
      await dispatch(
        handlersWith({ 'profiles:list': async () => Promise.reject(new Error(`leak ${token}`)) }),
        'profiles:list',
        undefined,
        ctx,
        (m) => logged.push(m),
      );
      expect(logged.join('')).not.toContain(token);
    } finally {
      forgetSecret(token);
    }
  });

  it('never echoes a rejected argument (it may be a token)', async () => {
    const res = await dispatch(
      handlersWith({}),
      'profiles:save',
      { name: 'x', baseUrl: 'https://a/v1', token: 123456789 },
      ctx,
      quiet,
    );
    expect(JSON.stringify(res)).not.toContain('123456789');
  });

  it('reports a handler’s deliberate failure with its own code', async () => {
    const res = await dispatch(
      handlersWith({
        'sync:start': async () => Promise.reject(new FieldbookError('busy', 'A sync is already running.')),
      }),
      'sync:start',
      {},
      ctx,
      quiet,
    );
    expect(res).toEqual({ ok: false, error: { code: 'busy', message: 'A sync is already running.' } });
  });

  it('scrubs results too: an e-mail the API echoed the token into never reaches the renderer', async () => {
    const token = 'result-echo-token-77Q=';
    registerSecret(token);
    try {
      const echoed = {
        userid: 4,
        emails: [{ emailid: 1, userid: 4, email: `${token}@example.com`, status: 'Active', isprimary: null }],
        fetchedAt: 'now',
      };
      const res = await dispatch(
        handlersWith({ 'users:detail': async () => echoed }),
        'users:detail',
        { userid: 4 },
        ctx,
        quiet,
      );
      expect(JSON.stringify(res)).not.toContain(token);
    } finally {
      forgetSecret(token);
    }
  });
});
