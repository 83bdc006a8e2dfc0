/** Builds the renderer once when out/renderer is missing (the harness serves the BUILT app). */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export default function globalSetup(): void {
  if (existsSync(path.join(root, 'out/renderer/index.html'))) return;
  const require = createRequire(path.join(root, 'package.json'));
  const packageJson = require.resolve('electron-vite/package.json');
  const bin = (JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: Record<string, string> }).bin[
    'electron-vite'
  ];
  if (!bin) throw new Error('electron-vite has no CLI.');
  const build = spawnSync(process.execPath, [path.join(path.dirname(packageJson), bin), 'build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('electron-vite build failed: the e2e suite needs out/renderer.');
}
