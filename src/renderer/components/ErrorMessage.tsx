/** An AppError for the user: its message, never a stack trace. */
import type { AppError } from '../../shared/ipc.ts';

export function ErrorMessage({
  error,
  onDismiss,
  onRetry,
}: {
  error: AppError | null | undefined;
  onDismiss?: () => void;
  onRetry?: (() => void) | undefined;
}) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <span>{error.message}</span>
      {onRetry && (
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      )}
      {onDismiss && (
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}

/**
 * The renderer's one error normaliser: any value thrown in the renderer as an
 * AppError to show, prefixed with what was being done. (Main's is toAppError,
 * which hides the message instead: the renderer holds no secret to leak.)
 */
export function errorFromUnknown(e: unknown, doing?: string): { code: 'internal'; message: string } {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong.';
  return { code: 'internal', message: doing ? `${doing}: ${message}` : message };
}
