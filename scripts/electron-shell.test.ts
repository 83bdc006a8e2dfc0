/**
 * `npm start`'s choice between Electron's window and the browser mode, against
 * fake `electron` packages in a temporary folder: an installer that succeeds,
 * fails, hangs or is skipped, no display, and a binary that exits at once.
 * The installer and the binary are real child processes (small scripts).
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browserModeLine, chooseShell, runElectron } from './electron-shell.mjs';

const onPosix = process.platform !== 'win32'; // the fakes are shell scripts
const display = { DISPLAY: ':0' };
const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** An installed binary: a script that notes it ran (with its arguments), then exits with `code`. */
function binaryScript(code: number, seconds = 0): string {
  return `#!/bin/sh\necho "$@" > "$(dirname "$0")/../ran.txt"\nsleep ${seconds}\nexit ${code}\n`;
}

const INSTALLERS = {
  succeeds: (binary: string) => `
    const fs = require('fs'); const path = require('path');
    fs.writeFileSync(path.join(__dirname, 'installer-ran.txt'), 'yes');
    fs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), ${JSON.stringify(binary)}, { mode: 0o755 });
    fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');
    console.log('fake installer: done');`,
  fails: () => `
    require('fs').writeFileSync(require('path').join(__dirname, 'installer-ran.txt'), 'yes');
    console.error('HTTPError: Response code 404 (Not Found) for https://example.invalid/electron.zip'); process.exit(1);`,
  hangs: () => `setInterval(() => {}, 1000);`,
  leavesNoBinary: () => `process.exit(0);`,
};

/** A project folder whose node_modules/electron is a fake with the given installer. */
function fakeProject(installer: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'fieldbook-fake-electron-'));
  made.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'fake-app', version: '1.0.0' }));
  const pkg = path.join(root, 'node_modules', 'electron');
  mkdirSync(pkg, { recursive: true });
  writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'electron', version: '45.5.0' }));
  writeFileSync(path.join(pkg, 'install.js'), installer);
  return root;
}

const electronDir = (root: string) => path.join(root, 'node_modules', 'electron');
const installerRan = (root: string) => existsSync(path.join(electronDir(root), 'installer-ran.txt'));
const quiet = () => undefined;

describe.runIf(onPosix)('npm start chooses between the window and the browser mode', () => {
  it('downloads a missing binary with Electron’s own installer, then opens the window', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    const lines: string[] = [];
    const choice = await chooseShell({
      root,
      env: display,
      platform: 'linux',
      log: (line) => lines.push(line),
    });
    expect(choice).toEqual({ shell: 'electron', binary: path.join(electronDir(root), 'dist', 'electron') });
    expect(lines[0]).toMatch(/^Downloading Electron 45\.5\.0 .*at most 300 s/);
    expect(lines.at(-1)).toBe('Electron 45.5.0 is installed.');
  });

  it('uses a binary already there without running the installer', async () => {
    const root = fakeProject(INSTALLERS.fails());
    mkdirSync(path.join(electronDir(root), 'dist'));
    writeFileSync(path.join(electronDir(root), 'dist', 'electron'), binaryScript(0), { mode: 0o755 });
    writeFileSync(path.join(electronDir(root), 'path.txt'), 'electron');
    expect((await chooseShell({ root, env: display, platform: 'linux', log: quiet })).shell).toBe('electron');
    expect(installerRan(root)).toBe(false);
  });

  it('serves the browser mode, saying the download failed, when the installer fails', async () => {
    const root = fakeProject(INSTALLERS.fails());
    const choice = await chooseShell({ root, env: display, platform: 'linux', log: quiet });
    expect(choice).toEqual({
      shell: 'browser',
      reason: "Electron's download failed (installer exit 1; its messages are above)",
    });
  });

  it('stops a download that does not finish in time and says so', async () => {
    const root = fakeProject(INSTALLERS.hangs());
    const choice = await chooseShell({
      root,
      env: { ...display, FIELDBOOK_ELECTRON_TIMEOUT: '0.5' },
      platform: 'linux',
      log: quiet,
    });
    expect(choice).toEqual({
      shell: 'browser',
      reason: "Electron's download did not finish within 0.5 s (blocked or too slow?)",
    });
  });

  it('says so when the installer claims success but leaves no binary', async () => {
    const root = fakeProject(INSTALLERS.leavesNoBinary());
    const choice = await chooseShell({ root, env: display, platform: 'linux', log: quiet });
    expect(choice).toEqual({
      shell: 'browser',
      reason: "Electron's installer finished but the binary has not been downloaded",
    });
  });

  it('does not download when ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    const choice = await chooseShell({
      root,
      env: { ...display, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
      platform: 'linux',
      log: quiet,
    });
    expect(choice).toEqual({
      shell: 'browser',
      reason: 'ELECTRON_SKIP_BINARY_DOWNLOAD is set, so Electron was not downloaded',
    });
    expect(installerRan(root)).toBe(false);
  });

  it('serves the browser mode on Linux without a display, downloading nothing', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    const choice = await chooseShell({ root, env: {}, platform: 'linux', log: quiet });
    expect(choice).toEqual({
      shell: 'browser',
      reason: 'there is no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set)',
    });
    expect(installerRan(root)).toBe(false);
  });

  it('takes a Wayland display as a display, and needs none on macOS or Windows', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    expect(
      (await chooseShell({ root, env: { WAYLAND_DISPLAY: 'wayland-0' }, platform: 'linux', log: quiet }))
        .shell,
    ).toBe('electron');
    expect((await chooseShell({ root, env: {}, platform: 'darwin', log: quiet })).shell).toBe('electron');
  });

  it('says the electron package is missing when it is', async () => {
    const root = fakeProject('');
    rmSync(electronDir(root), { recursive: true });
    const choice = await chooseShell({ root, env: display, platform: 'linux', log: quiet });
    expect(choice).toEqual({
      shell: 'browser',
      reason: 'the electron package is not installed (run npm install)',
    });
  });
});

describe.runIf(onPosix)('the installed binary, once run', () => {
  function installed(code: number, seconds = 0): { root: string; binary: string } {
    const root = fakeProject('');
    const binary = path.join(electronDir(root), 'dist', 'electron');
    mkdirSync(path.dirname(binary));
    writeFileSync(binary, binaryScript(code, seconds), { mode: 0o755 });
    return { root, binary };
  }

  it('runs on the project folder and hands back its exit code', async () => {
    const { root, binary } = installed(0);
    expect(await runElectron({ binary, root })).toEqual({ code: 0 });
    expect(readFileSync(path.join(electronDir(root), 'ran.txt'), 'utf8').trim()).toBe('.');
  });

  it('failing at once is a failure to start, with its exit code', async () => {
    const { root, binary } = installed(3);
    expect(await runElectron({ binary, root })).toEqual({
      failedToStart: 'Electron exited at once (exit 3; its messages are above)',
    });
  });

  it('failing after it ran a while is its own exit, not a failure to start', async () => {
    const { root, binary } = installed(3, 0.4);
    expect(await runElectron({ binary, root, quickExitMs: 100 })).toEqual({ code: 3 });
  });
});

/** Runs one of the real scripts in a fake project (its scripts/ copied in) to its end. */
function runScript(
  root: string,
  script: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  mkdirSync(path.join(root, 'scripts'), { recursive: true });
  for (const file of readdirSync(import.meta.dirname).filter((name) => name.endsWith('.mjs'))) {
    copyFileSync(path.join(import.meta.dirname, file), path.join(root, 'scripts', file));
  }
  const child = spawn(process.execPath, [path.join(root, 'scripts', script), ...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** The real scripts/start.mjs in a fake project whose electron-vite "builds" at once. */
function runStart(
  root: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'fake-app', engines: { node: '>=22.13' } }),
  );
  const vite = path.join(root, 'node_modules', 'electron-vite');
  mkdirSync(vite, { recursive: true });
  writeFileSync(
    path.join(vite, 'package.json'),
    JSON.stringify({ name: 'electron-vite', bin: { 'electron-vite': 'cli.js' } }),
  );
  writeFileSync(path.join(vite, 'cli.js'), "console.log('fake build done');");
  return runScript(root, 'start.mjs', env);
}

describe.runIf(onPosix)('npm start, spawned', () => {
  it('downloads Electron at first start and opens the window', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    const { code, output } = await runStart(root, display);
    expect(output).toContain('fake installer: done');
    expect(readFileSync(path.join(electronDir(root), 'ran.txt'), 'utf8').trim()).toBe('.');
    expect(output).not.toContain('in your browser');
    expect(code).toBe(0);
  });

  it('turns to the browser mode in one line when Electron exits at once', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(1)));
    // a busy FIELDBOOK_PORT stops the browser mode at its first step, which proves it was reached
    const busy = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => busy.once('listening', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const { output } = await runStart(root, { ...display, FIELDBOOK_PORT: String(port) });
      expect(output).toContain(
        `\n${browserModeLine('Electron exited at once (exit 1; its messages are above)')}\n`,
      );
      expect(output).toContain(`Port ${port} (FIELDBOOK_PORT) is already in use`);
    } finally {
      busy.close();
    }
  });
});

describe.runIf(onPosix)('the provisioning step of npm install and npm run dev', () => {
  it('reports a failed download in one line and lets npm install succeed', async () => {
    const root = fakeProject(INSTALLERS.fails());
    const { code, output } = await runScript(root, 'provision-electron.mjs', {});
    expect(output).toContain(
      "Electron is not ready: Electron's download failed (installer exit 1; its messages are above). `npm start` will try again, and otherwise open Fieldbook in your browser.",
    );
    expect(code).toBe(0);
  });

  it('fails npm run dev, which cannot work without Electron', async () => {
    const root = fakeProject(INSTALLERS.fails());
    const { code, output } = await runScript(root, 'provision-electron.mjs', {}, ['--required']);
    expect(output).toContain('`npm run dev` needs it.');
    expect(code).toBe(1);
  });

  it('installs the binary when the download works', async () => {
    const root = fakeProject(INSTALLERS.succeeds(binaryScript(0)));
    const { code, output } = await runScript(root, 'provision-electron.mjs', {});
    expect(output).toContain('Electron 45.5.0 is installed.');
    expect(existsSync(path.join(electronDir(root), 'dist', 'electron'))).toBe(true);
    expect(code).toBe(0);
  });
});
