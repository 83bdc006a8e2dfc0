#!/usr/bin/env node
// `npm install` (postinstall) and `npm run dev` (predev): download Electron's binary
// with Electron's own installer, as Electron >= 42 expects the app to (see
// electron-shell.mjs). After `npm install` a failure is reported and never fails the
// install: `npm start` tries again and otherwise serves the browser mode. With
// --required (`npm run dev`, which has no browser mode) a failure exits non-zero.
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { downloadSkipped, provisionElectron } from './electron-shell.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const required = process.argv.includes('--required');

const result = await provisionElectron({ root }).catch((error) => ({
  binary: null,
  reason: `unexpected error: ${error?.message ?? error}`,
}));
if (!result.binary) {
  const retry = downloadSkipped(process.env)
    ? '`npm start` will open'
    : '`npm start` will try again, and otherwise open';
  const next = required ? '`npm run dev` needs it.' : `${retry} Fieldbook in your browser.`;
  console.log(`Electron is not ready: ${result.reason}. ${next}`);
  process.exitCode = required ? 1 : 0;
}
