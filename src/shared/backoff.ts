/**
 * The one backoff of the app, used by the API client's retries (main) and the
 * outbox engine's retries (shared/replay-queue). Pure: the caller passes the
 * random number.
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * Exponential backoff with equal jitter: the n-th wait (n from 1) is between
 * half and all of base * 2^(n-1), capped at max, and never shorter than what
 * the server asked for (Retry-After). Equal rather than full jitter: a crowd of
 * failed requests still spreads out, and no retry goes straight back at a
 * server that has just failed.
 */
export function backoffMs(
  attempt: number,
  random: number,
  policy: BackoffPolicy,
  retryAfterMs?: number,
): number {
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(step * (0.5 + 0.5 * random));
  return Math.max(jittered, retryAfterMs ?? 0);
}
