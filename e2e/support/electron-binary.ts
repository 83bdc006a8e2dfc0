/**
 * Where Electron's binary is, without `require('electron')` (which tries to
 * download it when it is missing). Same logic as scripts/start.mjs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function findElectronBinary(): { binary: string; reason: null } | { binary: null; reason: string } {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  let packageDir: string;
  try {
    packageDir = path.dirname(require.resolve('electron/package.json'));
  } catch {
    return { binary: null, reason: 'the electron package is not installed' };
  }
  const pathFile = path.join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { binary: null, reason: 'node_modules/electron/path.txt is missing (the binary was never downloaded)' };
  const binary = path.join(process.env['ELECTRON_OVERRIDE_DIST_PATH'] ?? path.join(packageDir, 'dist'), readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary) ? { binary, reason: null } : { binary: null, reason: `${binary} does not exist` };
}
