/**
 * Where Electron's binary is, without `require('electron')` (which tries to
 * download it when it is missing): the same look-up `npm start` makes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findElectron } from '../../scripts/electron-shell.mjs';

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export function findElectronBinary(): { binary: string; reason: null } | { binary: null; reason: string } {
  return findElectron(projectRoot);
}
