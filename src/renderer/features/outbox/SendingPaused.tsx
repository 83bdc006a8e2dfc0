/**
 * The shell's line while the outbox has stopped sending (a refused token, a full disk): shown above every view but
 * the Outbox, which says it in its own words, so a coordinator working elsewhere learns that their changes wait.
 */
import { hrefFor } from '../../app/router.ts';
import { useOutbox } from '../../outbox/runtime.ts';

export function SendingPausedNotice({ route }: { route: string }) {
  const paused = useOutbox((s) => s.engineState.paused);
  if (!paused || route === 'outbox') return null;
  return (
    <p className="notice" role="alert">
      <strong>Your changes are not being sent.</strong> {paused.message}{' '}
      <a href={hrefFor('outbox')}>Open the Outbox</a>
    </p>
  );
}
