/**
 * Cheap requests that tell the user where they stand: is the API reachable,
 * does it take the token, and what may the token do. One attempt each, no
 * retries: a probe reports the present, it does not wait for a better one.
 */
import type { AppError, TokenAccess } from '../../shared/ipc.ts';
import { schemas } from '../../shared/api/wire.ts';
import { accessFromEmptyUpdate, accessFromUserRead, probeAnswer } from '../secrets/access.ts';
import type { ApiClient } from './client.ts';
import { toAppError } from '../ipc/errors.ts';

export interface ReachabilityResult {
  /** the API answered (even with a refusal) */
  online: boolean;
  error?: AppError;
}

// a sign-in page or a redirect in the way: the API is out of reach until the user deals with the network
const OFFLINE_CODES = new Set(['network', 'timeout', 'cancelled', 'not-the-api']);

/** GET /sites?limit=1: online, offline, or online with the token refused. */
export async function probeReachability(client: Pick<ApiClient, 'request'>): Promise<ReachabilityResult> {
  try {
    await client.request('GET', '/sites', { query: { startrow: 1, limit: 1 }, retry: 'none' });
    return { online: true };
  } catch (err) {
    const error = toAppError(err);
    if (OFFLINE_CODES.has(error.code))
      return {
        online: false,
        error: { ...error, code: error.code === 'cancelled' ? 'timeout' : error.code },
      };
    // an 800 on the site list is not a connection problem: a feature-limited token may not list sites
    if (error.code === 'access-denied') return { online: true };
    return { online: true, error };
  }
}

/**
 * What the token may do, learnt with two harmless requests: read one user, then
 * send that user an empty update (it changes nothing; a token that may write is
 * told "no valid parameters", a read-only one "access denied").
 */
export async function probeAccess(client: Pick<ApiClient, 'request'>): Promise<TokenAccess> {
  let userid: number | null;
  try {
    const res = await client.request('GET', '/users', { query: { startrow: 1, limit: 1 }, retry: 'none' });
    const list = (res.body as { users?: unknown } | null)?.users;
    const first = Array.isArray(list) ? schemas.user.safeParse(list[0]) : null;
    userid = first?.success ? first.data.userid : null;
  } catch (err) {
    return accessFromUserRead(probeAnswer(toAppError(err).code)) ?? 'unknown';
  }
  if (userid === null) return 'unknown';
  try {
    await client.request('PUT', `/users/${userid}`, { body: {}, retry: 'none' });
    return accessFromEmptyUpdate('ok');
  } catch (err) {
    return accessFromEmptyUpdate(probeAnswer(toAppError(err).code));
  }
}
