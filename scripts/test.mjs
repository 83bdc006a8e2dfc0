#!/usr/bin/env node
// `npm test`: every suite in order — typecheck, lint, unused exports, unit and integration tests
// (vitest), the renderer build, the packaged app (electron-builder against a stand-in
// Electron), end-to-end tests (Playwright in Debian's Chromium), and the security audit — then one closing line that
// sums them all:
// "N passed, N failed, N skipped". Exits non-zero when anything failed.
//
// keytar needs a Secret Service. On Linux without a D-Bus session (CI, a bare
// terminal) the runner re-executes itself inside `dbus-run-session` with an
// unlocked, throw-away gnome-keyring, so `npm test` works the same everywhere.
import './require-node.mjs'; // first: an old Node gets the version it needs, not a stack trace
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const tmp = join(root, '.tmp', 'test-results');

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS && !process.env.FIELDBOOK_IN_DBUS) {
  if (has('dbus-run-session') && has('gnome-keyring-daemon')) {
    // A keyring of its own in a fresh folder: an existing login keyring with another
    // password would stay locked and make every keychain call wait for a prompt.
    const keyrings = mkdtempSync(join(tmpdir(), 'fieldbook-keyring-'));
    const unlock = `echo -n fieldbook-test | XDG_DATA_HOME="${keyrings}" gnome-keyring-daemon --unlock --components=secrets`;
    const args = process.argv
      .slice(2)
      .map((a) => `'${a}'`)
      .join(' ');
    const inner = `${unlock} >/dev/null 2>&1; exec "${process.execPath}" "${import.meta.filename}" ${args}`;
    const r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner], {
      stdio: 'inherit',
      env: { ...process.env, FIELDBOOK_IN_DBUS: '1' },
    });
    rmSync(keyrings, { recursive: true, force: true });
    process.exit(r.status ?? 1);
  }
  console.warn('No D-Bus session and no gnome-keyring: keychain tests will report themselves skipped.');
}

rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
const bin = (name) => join(root, 'node_modules', '.bin', name);
const only = new Set(process.argv.slice(2)); // e.g. `npm test -- unit e2e`
const totals = { passed: 0, failed: 0, skipped: 0 };
const rows = [];
/** Lines printed under the table: what ran in the packaging step and the Electron e2e spec. */
const notes = [];

function run(label, cmd, args, env = {}) {
  console.log(`\n=== ${label}: ${[cmd, ...args].join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return { ok: r.status === 0, seconds: (Date.now() - started) / 1000 };
}

function count(label, passed, failed, skipped, seconds) {
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  rows.push({ label, passed, failed, skipped, seconds });
}

/** A step that is one check: it passes or fails as a whole. */
function step(label, cmd, args, env) {
  const r = run(label, cmd, args, env);
  count(label, r.ok ? 1 : 0, r.ok ? 0 : 1, 0, r.seconds);
  return r.ok;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}

const want = (name) => only.size === 0 || only.has(name);

if (want('typecheck')) {
  step('typecheck (main, preload, shared, server, e2e, bench)', bin('tsc'), [
    '--noEmit',
    '-p',
    'tsconfig.node.json',
  ]);
  step('typecheck (renderer)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.web.json']);
  // tests that run main and the renderer together in one process (src/integration)
  step('typecheck (integration)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.integration.json']);
}
if (want('lint')) step('lint', bin('eslint'), ['--max-warnings=0', '.']);
if (want('format'))
  step('formatting (Prettier)', bin('prettier'), ['--check', '**/*.{ts,tsx,js,mjs,cjs,css}']);
// every export something imports (knip.json names the entry points; plugins add electron-vite, vitest, Playwright)
if (want('exports'))
  step('unused exports (knip)', bin('knip'), [
    '--include',
    'exports,types,nsExports,nsTypes,enumMembers',
    '--no-progress',
  ]);

if (want('unit')) {
  const out = join(tmp, 'vitest.json');
  const r = run('unit and integration tests (vitest)', bin('vitest'), [
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const j = readJson(out);
  if (j) {
    const failedSuites = (j.testResults ?? []).filter(
      (s) => s.status === 'failed' && (s.assertionResults ?? []).length === 0,
    ).length;
    count(
      'vitest',
      j.numPassedTests,
      j.numFailedTests + failedSuites + (r.ok || j.numFailedTests + failedSuites > 0 ? 0 : 1),
      j.numPendingTests + j.numTodoTests,
      r.seconds,
    );
  } else count('vitest (no report)', 0, 1, 0, r.seconds);
}

let built = existsSync(join(root, 'out', 'renderer', 'index.html'));
if (want('build') || want('package') || want('e2e') || want('audit')) {
  built = step('build (electron-vite)', bin('electron-vite'), ['build']);
}

// electron-builder packs the built app against a stand-in Electron (scripts/packaging.test.ts); one run, about 20-45 s
if (want('package')) {
  if (!built) {
    count('packaging (not run: the build failed)', 0, 1, 0, 0);
  } else {
    const out = join(tmp, 'packaging.json');
    const size = join(tmp, 'packaging-size.json');
    const r = run(
      'packaged app (electron-builder, stand-in Electron)',
      bin('vitest'),
      [
        'run',
        'scripts/packaging.test.ts',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${out}`,
      ],
      { FIELDBOOK_PACKAGING: '1', FIELDBOOK_PACKAGING_REPORT: size },
    );
    const j = readJson(out);
    if (j)
      count(
        'packaged app',
        j.numPassedTests,
        j.numFailedTests + (r.ok || j.numFailedTests > 0 ? 0 : 1),
        j.numPendingTests,
        r.seconds,
      );
    else count('packaged app (no report)', 0, 1, 0, r.seconds);
    const s = readJson(size);
    if (s) {
      const asarSize = (s.asarBytes / 1e6).toFixed(1);
      const unpackedSize = (s.unpackedBytes / 1e6).toFixed(2);
      notes.push(`Packaged app: app.asar ${asarSize} MB (${s.files} files), unpacked ${unpackedSize} MB.`);
    }
  }
}

/** Whether e2e/electron.spec.ts ran, or why it was skipped, from Playwright's JSON report. */
function electronSpecNote(report) {
  const specs = [];
  const walk = (suite) => {
    if (suite.file?.endsWith('electron.spec.ts')) specs.push(...(suite.specs ?? []));
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of report.suites ?? []) walk(suite);
  const tests = specs.flatMap((spec) => spec.tests ?? []);
  if (tests.length === 0) return 'Electron e2e: not found in the report.';
  const skip = tests.flatMap((t) => t.annotations ?? []).find((a) => a.type === 'skip');
  if (tests.every((t) => t.status === 'skipped'))
    return `Electron e2e: skipped: ${skip?.description ?? 'no reason given'}.`;
  return `Electron e2e: ran in Electron (${tests.every((t) => t.status === 'expected') ? 'passed' : 'FAILED'}).`;
}

if (want('e2e')) {
  if (!built) {
    count('e2e (not run: the build failed)', 0, 1, 0, 0);
  } else {
    const out = join(tmp, 'playwright.json');
    const r = run(
      'end-to-end tests (Playwright, Debian Chromium)',
      bin('playwright'),
      ['test', '--reporter=list,json'],
      { PLAYWRIGHT_JSON_OUTPUT_NAME: out },
    );
    const j = readJson(out);
    if (j?.stats) {
      const s = j.stats;
      const failed = s.unexpected + (r.ok || s.unexpected > 0 ? 0 : 1);
      count('playwright', s.expected + s.flaky, failed, s.skipped, r.seconds);
      notes.push(electronSpecNote(j));
    } else count('playwright (no report)', 0, 1, 0, r.seconds);
  }
}

if (want('audit') && existsSync(join(root, 'scripts', 'audit.mjs'))) {
  step('security audit (Electronegativity, npm audit)', process.execPath, [
    join(root, 'scripts', 'audit.mjs'),
  ]);
}

console.log('\nSuite                                                  passed  failed  skipped   seconds');
for (const r of rows) {
  const label = r.label.padEnd(54).slice(0, 54);
  const passed = String(r.passed).padStart(6);
  const failed = String(r.failed).padStart(6);
  const skipped = String(r.skipped).padStart(7);
  const seconds = r.seconds.toFixed(1).padStart(8);
  console.log(`${label} ${passed}  ${failed}  ${skipped}  ${seconds}`);
}
for (const note of notes) console.log(note);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
