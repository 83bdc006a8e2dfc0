/** A failure a handler reports on purpose, with the AppError the user sees. */
import type { AppError, ErrorCode } from '../../shared/ipc.ts';
import { defaultMessage } from '../api/errors.ts';

export class FieldbookError extends Error {
  readonly appError: AppError;

  constructor(code: ErrorCode, message: string = defaultMessage(code)) {
    super(message);
    this.name = 'FieldbookError';
    this.appError = { code, message };
  }
}
