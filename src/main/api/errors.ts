/**
 * Turning API answers into AppErrors, and the retry rules. Pure: no I/O.
 *
 * 800, 801 and 802 mean three different things to the user (no access to that
 * record / no token sent / token rejected) and get three different codes.
 */
import { ResponseCode, type StatusBody } from '../../shared/api/codes.ts';
import type { AppError, ErrorCode } from '../../shared/ipc.ts';
import { backoffMs } from '../../shared/backoff.ts';

/** An API failure: what the user is told (appError) plus what the retry logic needs. */
export class ApiError extends Error {
  readonly appError: AppError;
  readonly retryable: boolean;
  /** the request may have reached the server (timeout, connection dropped after sending) */
  readonly maybeSent: boolean;

  constructor(appError: AppError, opts: { retryable?: boolean; maybeSent?: boolean } = {}) {
    super(appError.message);
    this.name = 'ApiError';
    this.appError = appError;
    this.retryable = opts.retryable ?? isRetryableCode(appError.code);
    this.maybeSent = opts.maybeSent ?? false;
  }
}

const MESSAGES: Record<ErrorCode, string> = {
  'invalid-argument': 'The request was not valid.',
  'forbidden-sender': 'This request is not allowed from here.',
  'unknown-channel': 'Unknown request.',
  'no-profile': 'No site is connected: add a profile or try the demo.',
  'keychain-unavailable': 'The system keychain is not available.',
  'token-missing': 'The API received no access token. Enter the token for this profile.',
  'token-rejected':
    'The API rejected the access token: it may have been revoked or mistyped. Enter a valid token for this profile.',
  'access-denied':
    'The API refused access: this record belongs to another customer, or the token’s access level does not allow it.',
  'not-found': 'The record was not found on the server.',
  rejected: 'The API refused the request as invalid.',
  duplicate: 'The server already has this record.',
  'dependents-first': 'The server refused: records that depend on this one must be removed first.',
  'rate-limited': 'The server is busy (too many requests at once). Fieldbook will try again shortly.',
  server: 'The server had a problem answering. Fieldbook will try again.',
  network: 'The server could not be reached. Check the network connection.',
  timeout: 'The server took too long to answer.',
  'malformed-response': 'The server’s answer did not have the expected shape, so it was not used.',
  'not-the-api':
    'Something other than the API answered (a network sign-in page or a proxy?), so the answer was not used and nothing was changed.',
  conflict: 'The record changed on the server since the edit was made.',
  cancelled: 'Cancelled.',
  busy: 'Fieldbook is already doing this.',
  'working-offline':
    'Fieldbook is set to work offline: nothing is fetched or sent until you turn “Work offline” off.',
  internal: 'Something went wrong inside Fieldbook. Try again; if it keeps happening, restart the app.',
};

export function defaultMessage(code: ErrorCode): string {
  return MESSAGES[code];
}

/** Codes worth retrying automatically: the next attempt may well succeed. */
export function isRetryableCode(code: ErrorCode): boolean {
  return code === 'network' || code === 'timeout' || code === 'server' || code === 'rate-limited';
}

/** Response codes that are failures even when the HTTP status says 2xx. */
export function isFailureStatusCode(statuscode: number): boolean {
  return (
    (statuscode >= 704 && statuscode < 900) ||
    statuscode === 900 ||
    (statuscode >= 902 && statuscode !== ResponseCode.NotModified)
  );
}

function codeForStatus(httpcode: number, statuscode: number | undefined): ErrorCode {
  switch (statuscode) {
    case ResponseCode.AccessDenied:
      return 'access-denied';
    case ResponseCode.NoToken:
      return 'token-missing';
    case ResponseCode.InvalidToken:
      return 'token-rejected';
    case ResponseCode.NoResults:
      return 'not-found';
    case ResponseCode.NotUnique:
      return 'duplicate';
    case ResponseCode.DependentsFirst:
      return 'dependents-first';
    case ResponseCode.ExternalUnavailable:
      return 'server';
    case ResponseCode.TooManyRequests:
      return 'rate-limited';
  }
  if (httpcode === 429) return 'rate-limited';
  if (httpcode >= 500) return 'server';
  if (statuscode !== undefined && statuscode >= 700) return 'rejected';
  // no status body: fall back on HTTP alone
  if (httpcode === 401) return 'token-rejected';
  if (httpcode === 403) return 'access-denied';
  if (httpcode === 404) return 'not-found';
  return 'rejected';
}

/** An error answer (or a failure status body on a 2xx) as an AppError. */
export function appErrorFromResponse(
  httpcode: number,
  statusBody: StatusBody | null,
  retryAfterMs?: number,
): AppError {
  const code = codeForStatus(httpcode, statusBody?.statuscode);
  let message = defaultMessage(code);
  // the API's own words help with validation failures ("username already in use")
  if (
    (code === 'rejected' || code === 'duplicate' || code === 'dependents-first') &&
    statusBody?.developermessage
  ) {
    message = `${message.replace(/\.$/, '')}: ${statusBody.developermessage}`;
  } else if (code === 'rejected' && !statusBody) {
    message = `The API refused the request (HTTP ${httpcode}).`;
  }
  const error: AppError = { code, message, httpcode };
  if (statusBody) {
    error.statuscode = statusBody.statuscode;
    error.response = statusBody;
  }
  if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
  return error;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** 3 retries: 4 attempts in all, so a hung API (10 s per attempt) is reported within about 45 s. */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, baseDelayMs: 300, maxDelayMs: 10_000 };

/** How long one attempt may take before it counts as timed out. */
export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * How long to wait before attempt number `attempt + 1` (attempt counts from 0),
 * or null to give up: the app's one backoff (shared/backoff.ts, exponential with
 * equal jitter); a server's Retry-After is honoured as the minimum wait.
 */
export function retryDelay(
  error: ApiError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number | null {
  if (!error.retryable || attempt >= policy.maxRetries) return null;
  return backoffMs(
    attempt + 1,
    random(),
    { baseMs: policy.baseDelayMs, maxMs: policy.maxDelayMs },
    error.appError.retryAfterMs,
  );
}
