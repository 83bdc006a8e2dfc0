/**
 * A keychain entry whose value cannot be read (its keyring locked, with no way
 * to unlock it) once killed a Playwright worker: libsecret logged
 * `secret_value_get_text: assertion 'value' failed` and keytar, reading every
 * entry of the service, crashed the process (SIGSEGV). In the app that process
 * is main. Reading such an entry is an answer (no token, said in words by the
 * profile store), never a crash.
 *
 * The entry is made in a D-Bus session and keyring of its own, so locking it
 * touches no other test.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const SCRIPT = 'src/main/testing/unreadable-keychain-entry.ts';
const TOOLS = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'];
const missing = TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
const skip = missing.length > 0 && !process.env.CI;
const reason = skip ? ` (skipped: ${missing.join(', ')} not installed)` : '';

function inOwnKeyring(): { status: number | null; signal: string | null; stdout: string; stderr: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'fieldbook-unreadable-'));
  try {
    const node = `'${process.execPath}' --experimental-strip-types --no-warnings ${SCRIPT}`;
    const session = `echo -n x | XDG_DATA_HOME='${home}' gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; ${node}`;
    const run = spawnSync('dbus-run-session', ['--', 'sh', '-c', session], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    // sh reports a child killed by a signal as 128 + its number
    const signal =
      run.status !== null && run.status > 128
        ? os.constants.signals.SIGSEGV === run.status - 128
          ? 'SIGSEGV'
          : `signal ${run.status - 128}`
        : null;
    return { status: run.status, signal, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

describe(`a keychain entry whose value cannot be read${reason}`, () => {
  it.skipIf(skip)(
    'is answered, not a crash: the keychain answers its probe, and the entry reads as no token',
    () => {
      const run = inOwnKeyring();
      expect(run.signal, run.stderr).toBeNull();
      expect(run.status, run.stderr).toBe(0);
      const answered = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as Record<string, unknown>;
      // the profile store turns "no token" for a profile saved with one into words (profiles.test.ts)
      expect(answered).toEqual({ available: { value: { available: true } }, token: { value: null } });
    },
    90_000,
  );
});
