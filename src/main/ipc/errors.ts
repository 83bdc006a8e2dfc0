/** The failures main reports on purpose, and main's one error normaliser. */
import type { AppError, ErrorCode } from '../../shared/ipc.ts';
import { defaultMessage } from '../api/errors.ts';
import { scrubDeep } from '../secrets/scrub.ts';

/** A failure a handler reports on purpose, with the AppError the user sees. */
export class FieldbookError extends Error {
  readonly appError: AppError;

  constructor(code: ErrorCode, message: string = defaultMessage(code)) {
    super(message);
    this.name = 'FieldbookError';
    this.appError = { code, message };
  }
}

/**
 * An Error that carries the AppError the user sees: the API client's ApiError, a FieldbookError, a replay read's
 * ReplayReadError.
 */
function carriesAppError(err: unknown): err is Error & { appError: AppError } {
  if (!(err instanceof Error) || !('appError' in err)) return false;
  const e = err.appError as Partial<AppError> | null;
  return typeof e === 'object' && e !== null && typeof e.code === 'string' && typeof e.message === 'string';
}

const INTERNAL: AppError = { code: 'internal', message: defaultMessage('internal') };

/**
 * Main's one error normaliser: any thrown value as the AppError the user sees,
 * with no stack trace and no token in it. A failure that carries its AppError
 * keeps it (scrubbed); an abort is 'cancelled'; anything else is `fallback` —
 * 'internal' unless the caller knows better (the details go to the log, never
 * to the renderer).
 */
export function toAppError(err: unknown, fallback: AppError = INTERNAL): AppError {
  if (carriesAppError(err)) return scrubDeep(err.appError);
  if (err instanceof Error && err.name === 'AbortError')
    return { code: 'cancelled', message: defaultMessage('cancelled') };
  return fallback;
}
