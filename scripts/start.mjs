#!/usr/bin/env node
// `npm start`: build with electron-vite, then open Electron's window. Where it
// cannot open (no display, Electron's binary missing after a failed, blocked or
// skipped download, or Electron exiting at once) say which in one line and serve
// the same app to the browser instead (the browser mode). electron-shell.mjs
// holds the decision; this file builds and launches.
// Plain JavaScript (ESM) so it runs on Node >= 22.13 without type stripping.
// First: the Node version (an older one gets the version it needs) and a free port.
import './require-node.mjs';
import { harnessCacheNote, harnessPortOrExit } from './preflight.mjs';
import { browserModeLine, chooseShell, runElectron } from './electron-shell.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

function electronViteBin() {
  const packageJson = require.resolve('electron-vite/package.json');
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8'));
  return path.join(path.dirname(packageJson), typeof bin === 'string' ? bin : bin['electron-vite']);
}

function runToEnd(child) {
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The browser mode: the same renderer and main-process handlers, carried over a loopback WebSocket. */
async function startBrowserMode() {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS && process.platform === 'linux') {
    console.log(
      'Note: no D-Bus session was found, so the keychain is unavailable: "Try the demo" works, profiles with a token cannot be added.',
    );
    console.log('      Run inside `dbus-run-session` with gnome-keyring unlocked to add them.');
  }
  // 5180 unless busy or FIELDBOOK_PORT: IndexedDB is kept per origin, port included
  const port = await harnessPortOrExit(process.env);
  console.log(harnessCacheNote(port));
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const args = [
    '--experimental-strip-types',
    '--no-warnings',
    path.join(root, 'src/browser-mode/cli.ts'),
    '--port',
    port,
  ];
  args.push('--settings-dir', path.join(configHome, 'Fieldbook-harness'));
  runToEnd(spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }));
}

console.log('Building Fieldbook (electron-vite build)...');
const build = spawnSync(process.execPath, [electronViteBin(), 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('The build failed; see the messages above.');
  process.exit(build.status ?? 1);
}

const shell = await chooseShell({ root });
const ran =
  shell.shell === 'electron'
    ? await runElectron({ binary: shell.binary, root })
    : { failedToStart: shell.reason };
if ('code' in ran) process.exit(ran.code);
console.log(`\n${browserModeLine(ran.failedToStart)}`);
await startBrowserMode();
