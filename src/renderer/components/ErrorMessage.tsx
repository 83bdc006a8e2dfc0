/** An AppError for the user: its message, never a stack trace. */
import type { AppError } from '../../shared/ipc.ts';

export function ErrorMessage({ error, onDismiss }: { error: AppError | null | undefined; onDismiss?: () => void }) {
  if (!error) return null;
  return (
    <div className="error" role="alert">
      <span>{error.message}</span>
      {onDismiss && (
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}

/** Any thrown value as an AppError-shaped message for display. */
export function errorFromUnknown(e: unknown): { code: 'internal'; message: string } {
  const message = e instanceof Error ? e.message : typeof e === 'string' ? e : 'Something went wrong.';
  return { code: 'internal', message };
}
