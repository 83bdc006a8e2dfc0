/** Every file under a folder, with its text (settings, logs: whatever the app wrote). */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export async function filesUnder(dir: string): Promise<Array<{ file: string; text: string }>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
  return Promise.all(files.map(async (file) => ({ file, text: (await readFile(file)).toString('latin1') })));
}
