// Electron's binary, provisioned the way Electron >= 42 intends, and the choice
// `npm start` makes between Electron's window and the browser mode.
//
// Since Electron 42 the `electron` package has no install script: its binary is
// fetched by `npx install-electron` (node_modules/electron/install.js) or lazily
// by the first `require('electron')`. Nothing here requires 'electron' (that would
// start a download with no timeout); the installer is run as a child process, with
// a timeout and a line every few seconds, by `npm install` (postinstall), `npm run
// dev` (predev) and `npm start` when the binary is still missing.
// Plain JavaScript (ESM) so it runs on Node >= 22.13 without type stripping.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** How long the installer may take before it is stopped (FIELDBOOK_ELECTRON_TIMEOUT, seconds). */
export const DEFAULT_DOWNLOAD_TIMEOUT_S = 300;
/** An Electron that fails within this long after its start failed to start: the browser mode takes over. */
export const QUICK_EXIT_MS = 10_000;
const HEARTBEAT_MS = 10_000;

/** The installed `electron` package's folder and version, or null. */
function electronPackage(root) {
  try {
    const manifest = createRequire(path.join(root, 'package.json')).resolve('electron/package.json');
    return { dir: path.dirname(manifest), version: JSON.parse(readFileSync(manifest, 'utf8')).version };
  } catch {
    return null;
  }
}

/** The Electron binary's path, or null with the reason (in words for the terminal). */
export function findElectron(root, env = process.env) {
  const pkg = electronPackage(root);
  if (!pkg) return { binary: null, reason: 'the electron package is not installed (run npm install)' };
  const pathFile = path.join(pkg.dir, 'path.txt');
  if (!existsSync(pathFile)) return { binary: null, reason: "Electron's binary has not been downloaded" };
  const binary = path.join(
    env.ELECTRON_OVERRIDE_DIST_PATH || path.join(pkg.dir, 'dist'),
    readFileSync(pathFile, 'utf8').trim(),
  );
  return existsSync(binary)
    ? { binary, reason: null }
    : { binary: null, reason: `Electron's binary is missing (${binary})` };
}

/** Electron's own switch for machines that must not download it (any value but "", "0" or "false"). */
export function downloadSkipped(env) {
  const value = env.ELECTRON_SKIP_BINARY_DOWNLOAD;
  return value !== undefined && !['', '0', 'false'].includes(value.toLowerCase());
}

/** Why a window cannot open here, or null: Linux (and the BSDs) need an X11 or Wayland display. */
export function displayProblem(platform, env) {
  if (!['linux', 'freebsd', 'openbsd'].includes(platform)) return null;
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return null;
  return 'there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)';
}

function timeoutSeconds(env) {
  const wanted = Number(env.FIELDBOOK_ELECTRON_TIMEOUT);
  return Number.isFinite(wanted) && wanted > 0 ? wanted : DEFAULT_DOWNLOAD_TIMEOUT_S;
}

/**
 * Runs install.js (the `install-electron` bin) to its end or to the timeout; resolves to null or the reason it failed.
 */
function runInstaller(pkg, timeoutS, log) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [path.join(pkg.dir, 'install.js')], {
      cwd: pkg.dir,
      stdio: 'inherit',
    });
    const heartbeat = setInterval(() => {
      log(
        `  still downloading Electron (${Math.round((Date.now() - started) / 1000)} s of at most ${timeoutS} s)...`,
      );
    }, HEARTBEAT_MS);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutS * 1000);
    const finish = (reason) => {
      clearInterval(heartbeat);
      clearTimeout(timer);
      resolve(reason);
    };
    child.on('error', (error) => finish(`Electron's installer could not be run (${error.message})`));
    child.on('exit', (code, signal) => {
      if (timedOut) finish(`Electron's download did not finish within ${timeoutS} s (blocked or too slow?)`);
      else if (code === 0) finish(null);
      else finish(`Electron's download failed (installer exit ${code ?? signal}; its messages are above)`);
    });
  });
}

/**
 * Makes sure Electron's binary is there, downloading it with Electron's own
 * installer when it is not. Resolves to { binary } or { binary: null, reason }.
 * Never throws: a failed download is reported, not fatal.
 */
export async function provisionElectron({ root, env = process.env, log = console.log }) {
  const found = findElectron(root, env);
  if (found.binary) return found;
  const pkg = electronPackage(root);
  if (!pkg) return found;
  if (downloadSkipped(env))
    return { binary: null, reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so Electron was not downloaded' };
  const timeoutS = timeoutSeconds(env);
  log(
    `Downloading Electron ${pkg.version} for ${process.platform}-${process.arch} with its own installer (about 100 MB, ` +
      `at most ${timeoutS} s; FIELDBOOK_ELECTRON_TIMEOUT=<seconds> changes that, ELECTRON_SKIP_BINARY_DOWNLOAD=1 skips it)...`,
  );
  const failure = await runInstaller(pkg, timeoutS, log);
  if (failure) return { binary: null, reason: failure };
  const after = findElectron(root, env);
  if (after.binary) log(`Electron ${pkg.version} is installed.`);
  return after.binary
    ? after
    : {
        binary: null,
        reason: `Electron's installer finished but ${after.reason.replace(/^Electron's /, 'the ')}`,
      };
}

/**
 * `npm start`'s choice: Electron's window, or the browser mode with the one
 * reason why not. No display is checked first: a 100 MB download would be of no
 * use on a machine that cannot show a window.
 */
export async function chooseShell({
  root,
  env = process.env,
  platform = process.platform,
  log = console.log,
}) {
  const noDisplay = displayProblem(platform, env);
  if (noDisplay) return { shell: 'browser', reason: noDisplay };
  const electron = await provisionElectron({ root, env, log });
  return electron.binary
    ? { shell: 'electron', binary: electron.binary }
    : { shell: 'browser', reason: electron.reason };
}

/**
 * Runs Electron on the app. Resolves to { code } when it ran and was closed, or to
 * { failedToStart: reason } when it failed within QUICK_EXIT_MS (a missing system
 * library, a sandbox it cannot set up, a display it cannot open). A quick exit with
 * code 0 is a success: a second `npm start` hands over to the open window and quits.
 */
export function runElectron({ binary, root, quickExitMs = QUICK_EXIT_MS, spawnImpl = spawn }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawnImpl(binary, ['.'], { cwd: root, stdio: 'inherit' });
    let stoppedByUser = false;
    const forward = (signal) => {
      stoppedByUser = true;
      child.kill(signal);
    };
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    const settle = (result) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(result);
    };
    child.on('error', (error) => settle({ failedToStart: `Electron could not be run (${error.message})` }));
    child.on('exit', (code, signal) => {
      const quick = Date.now() - started < quickExitMs;
      if (quick && code !== 0 && !stoppedByUser)
        settle({
          failedToStart: `Electron exited at once (${code === null ? `signal ${signal}` : `exit ${code}`}; its messages are above)`,
        });
      else settle({ code: code ?? 1 });
    });
  });
}

/** The one line `npm start` prints before it serves the browser mode. */
export function browserModeLine(reason) {
  return `Fieldbook opens in your browser instead of its own window: ${reason}.`;
}
