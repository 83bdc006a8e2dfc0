/** The demo concern: the in-process reference server, started once, on first use. */
import type { MainDeps } from '../deps.ts';
import { FieldbookError } from '../ipc/errors.ts';

export interface DemoService {
  /** Starts the demo server (or answers with the one already started); a failed start may be retried. */
  start(): Promise<{ baseUrl: string; token: string }>;
}

export function createDemoService(host: MainDeps['demo']): DemoService {
  let demo: Promise<{ baseUrl: string; token: string }> | null = null;
  return {
    start() {
      demo ??= host.start().catch((err: unknown) => {
        demo = null;
        console.error('[fieldbook] the demo server did not start:', err instanceof Error ? err.message : String(err));
        throw new FieldbookError('internal', 'The demo could not be started. Try again; if it keeps failing, restart Fieldbook.');
      });
      return demo;
    },
  };
}
