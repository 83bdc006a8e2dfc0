/** The demo concern: the in-process reference server, started once, on first use, and its "another admin". */
import type { DemoServerChange, ParsedArg } from '../../shared/ipc.ts';
import type { MainDeps } from '../deps.ts';
import { FieldbookError } from '../ipc/errors.ts';

export interface DemoService {
  /** Starts the demo server (or answers with the one already started); a failed start may be retried. */
  start(): Promise<{ baseUrl: string; token: string }>;
  /** "Another admin" changes the demo server's data (the caller checks that the demo profile is the active one). */
  change(arg: ParsedArg<'demo:serverChange'>): Promise<DemoServerChange>;
}

export function createDemoService(host: MainDeps['demo']): DemoService {
  let demo: Promise<{ baseUrl: string; token: string }> | null = null;
  const start = () => {
    demo ??= host.start().catch((err: unknown) => {
      demo = null;
      console.error(
        '[fieldbook] the demo server did not start:',
        err instanceof Error ? err.message : String(err),
      );
      throw new FieldbookError(
        'internal',
        'The demo could not be started. Try again; if it keeps failing, restart Fieldbook.',
      );
    });
    return demo;
  };
  return {
    start,
    async change(arg) {
      if (!host.change)
        throw new FieldbookError('invalid-argument', 'This demo runs on a server Fieldbook cannot change.');
      await start();
      return host.change(arg);
    },
  };
}
