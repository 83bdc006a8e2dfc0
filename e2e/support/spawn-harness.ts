/** The harness as its own process (as `npm start` runs it), for tests that need a different environment. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { projectRoot } from './electron-binary.ts';

export interface SpawnedHarness {
  url: string;
  settingsDir: string;
  stop(): Promise<void>;
}

export async function spawnHarness(env: NodeJS.ProcessEnv): Promise<SpawnedHarness> {
  const settingsDir = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-spawned-'));
  const args = [
    '--experimental-strip-types',
    '--no-warnings',
    path.join(projectRoot, 'src/browser-mode/cli.ts'),
    '--port',
    '0',
    '--settings-dir',
    settingsDir,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(settingsDir, { recursive: true, force: true });
  };
  if (!child.stdout) throw new Error('The harness has no stdout.');
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`The harness exited with ${String(code)} before it started.`)),
    );
  });
  lines.on('line', () => undefined); // keep draining
  const { url } = JSON.parse(first) as { url: string };
  return { url, settingsDir, stop };
}
