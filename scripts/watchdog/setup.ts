/**
 * Vitest setup: a test stuck in a loop that never yields (a `while (true)`, or an
 * endless chain of resolved awaits) blocks its worker's event loop, so Vitest's own
 * timeout timer can never fire and the run hangs until CI's limit. A watchdog thread
 * beside each test file's event loop notices when the loop has not ticked for longer
 * than the running test's timeout (hooks: the hook timeout), names the test on stderr
 * and kills the worker; Vitest then fails the file instead of hanging the run.
 */
import { afterAll, beforeEach, afterEach } from 'vitest';
import { startWatchdog } from './watchdog.ts';

const watchdog = startWatchdog();

beforeEach((ctx) => {
  watchdog.enter(ctx.task.name, ctx.task.timeout ?? 30_000);
});

afterEach(() => {
  watchdog.leave();
});

afterAll(() => {
  watchdog.stop();
});
