#!/usr/bin/env node
// `npm run dist`: build the app, then the installers for the OS this runs on
// (electron-builder.yml: AppImage and deb on Linux, NSIS on Windows, dmg on macOS),
// in dist/. Signing and notarising use electron-builder's own environment variables;
// where they are absent that step is skipped and this says so. Extra arguments go
// to electron-builder (e.g. `npm run dist -- --dir` for the app folder alone).
import './require-node.mjs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const has = (env, ...names) => names.every((name) => Boolean(env[name]));
const APPLE_ID_VARS = ['APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID'];
const APPLE_API_VARS = ['APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'];

function macPlan(env) {
  const signed = has(env, 'CSC_LINK') || has(env, 'CSC_NAME');
  const notarised = signed && (has(env, ...APPLE_ID_VARS) || has(env, ...APPLE_API_VARS));
  const messages = [];
  // without a certificate electron-builder would sign with whatever identity the login keychain holds
  if (!signed)
    messages.push(
      'Not signed: set CSC_LINK (a .p12 Developer ID certificate) and CSC_KEY_PASSWORD, or CSC_NAME.',
    );
  if (!notarised)
    messages.push(
      `Not notarised: needs a signature and ${APPLE_ID_VARS.join(', ')} (or ${APPLE_API_VARS.join(', ')}).`,
    );
  return {
    messages,
    env: signed ? {} : { CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
    args: [`-c.mac.notarize=${notarised}`],
  };
}

function winPlan(env) {
  const signed = has(env, 'WIN_CSC_LINK') || has(env, 'CSC_LINK');
  const messages = signed
    ? []
    : [
        'Not signed: set WIN_CSC_LINK (or CSC_LINK) and its password; unsigned, Windows SmartScreen warns at install.',
      ];
  return { messages, env: {}, args: [] };
}

/**
 * What `npm run dist` does about signing on `platform`, from the environment:
 * the lines to print, environment to add and arguments for electron-builder.
 */
export function signingPlan(platform, env) {
  if (platform === 'darwin') return macPlan(env);
  if (platform === 'win32') return winPlan(env);
  return {
    messages: [
      "Not signed: AppImage and deb are not signed here (sign the .deb's repository, if you publish one).",
    ],
    env: {},
    args: [],
  };
}

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function main() {
  const bin = (name) => path.join(root, 'node_modules', name);
  console.log('Building Fieldbook (electron-vite build)...');
  run(process.execPath, [bin('electron-vite/bin/electron-vite.js'), 'build']);
  const plan = signingPlan(process.platform, process.env);
  for (const line of plan.messages) console.log(line);
  run(
    process.execPath,
    [bin('electron-builder/cli.js'), '--publish', 'never', ...plan.args, ...process.argv.slice(2)],
    plan.env,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
