#!/usr/bin/env node
// `npm start`: build with electron-vite, then run Electron when its binary is
// installed; otherwise say so and serve the same app through the browser harness.
// Plain JavaScript (ESM) so it runs on Node >= 22.13 without type stripping.
// First: the Node version (an older one gets the version it needs) and a free port.
import './require-node.mjs';
import { harnessCacheNote, harnessPortOrExit } from './preflight.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));

/** The Electron binary's path, or null with the reason. Never `require('electron')`: it tries to download. */
function findElectron() {
  let packageDir;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { binary: null, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { binary: null, reason: `its binary was never downloaded (${path.relative(root, pathFile)} is missing)` };
  const binary = path.join(process.env.ELECTRON_OVERRIDE_DIST_PATH || path.join(packageDir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary, reason: null } : { binary: null, reason: `${binary} does not exist` };
}

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

console.log('Building Fieldbook (electron-vite build)...');
const build = spawnSync(process.execPath, [electronViteBin(), 'build'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('The build failed; see the messages above.');
  process.exit(build.status ?? 1);
}

const electron = findElectron();
if (electron.binary) {
  runToEnd(spawn(electron.binary, ['.'], { cwd: root, stdio: 'inherit' }));
} else {
  console.log(`\nElectron cannot start here: ${electron.reason}.`);
  console.log('Starting the browser harness instead: the same renderer and main-process handlers, carried over a loopback WebSocket.');
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    console.log('Note: no D-Bus session was found, so the keychain is unavailable: "Try the demo" works, profiles with a token cannot be added.');
    console.log('      Run inside `dbus-run-session` with gnome-keyring unlocked to add them.');
  }
  const port = await harnessPortOrExit(process.env); // 5180 unless busy or FIELDBOOK_PORT: IndexedDB is kept per origin, port included
  console.log(harnessCacheNote(port));
  const configHome = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  const args = ['--experimental-strip-types', '--no-warnings', path.join(root, 'src/browser-mode/cli.ts'), '--port', port];
  args.push('--settings-dir', path.join(configHome, 'Fieldbook-harness'));
  runToEnd(spawn(process.execPath, args, { cwd: root, stdio: 'inherit' }));
}
