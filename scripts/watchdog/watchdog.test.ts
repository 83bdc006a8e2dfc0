import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const config = join(import.meta.dirname, 'fixtures', 'vitest.config.ts');

function childVitest(fixture: string) {
  const started = Date.now();
  const r = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, WATCHDOG_FIXTURE: fixture, CI: 'true', FORCE_COLOR: '0' },
      timeout: 60_000,
    },
  );
  return {
    status: r.status,
    signal: r.signal,
    output: `${r.stdout}${r.stderr}`,
    seconds: (Date.now() - started) / 1000,
  };
}

describe('a hung test fails the run instead of hanging it', () => {
  it('a test stuck in a loop that never yields is named and fails within its timeout', () => {
    const r = childVitest('hangs.fixture.ts');
    expect(r.signal, 'the child Vitest itself hung').toBeNull();
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('[watchdog] "a loop that never yields" blocked its worker');
    // 2 s timeout + 5 s grace, plus Vitest's start: far below the 60 s that a hang would take
    expect(r.seconds).toBeLessThan(30);
  }, 60_000);

  it('so does a test that awaits resolved promises forever (timers never get their turn)', () => {
    const r = childVitest('awaits.fixture.ts');
    expect(r.signal, 'the child Vitest itself hung').toBeNull();
    expect(r.status).not.toBe(0);
    expect(r.output).toContain('[watchdog] "an endless chain of resolved awaits" blocked its worker');
    expect(r.seconds).toBeLessThan(30);
  }, 60_000);

  it('tests that take their time but yield are left alone', () => {
    const r = childVitest('passes.fixture.ts');
    expect(r.output).not.toContain('[watchdog]');
    expect(r.status).toBe(0);
  }, 60_000);
});
