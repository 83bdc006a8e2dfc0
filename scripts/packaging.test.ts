/**
 * What an installer would hold: electron-builder packs the built app (out/) with
 * electron-builder.yml against a stand-in Electron distribution (`electronDist`;
 * Electron's binary cannot be downloaded here), then the asar and the unpacked
 * files are listed. Slow (about 20-45 s): npm test runs it once, after the build,
 * as its own step (FIELDBOOK_PACKAGING=1; vitest.config.ts leaves it out otherwise).
 * What only a real Electron shows (the window opens, keytar loads in it, the fuses
 * and the asar's integrity are honoured) is e2e/electron.spec.ts's part.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { extractFile, getRawHeader } from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { init as initLexer, parse as parseModule } from 'es-module-lexer';
import { writeStandInDistribution } from './testing/stand-in-electron.ts';

const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(tmpdir(), 'fieldbook-package-'));
const appDir = path.join(work, 'dist', 'linux-unpacked');
const asarFile = path.join(appDir, 'resources', 'app.asar');
const unpackedDir = `${asarFile}.unpacked`;
const KEYTAR_BINDING = 'node_modules/keytar/build/Release/keytar.node';

/** Every file (not folder) in the asar, as relative paths. */
let files: string[] = [];
let unpacked: string[] = [];

function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(path.join(dir, entry.name), relative) : [relative];
  });
}

/**
 * electron-builder in a child process, awaited (a synchronous spawn would block the test's event loop for the whole
 * run).
 */
async function pack(): Promise<void> {
  writeStandInDistribution(path.join(work, 'electron'));
  const args = [
    '--linux',
    'dir',
    '--publish',
    'never',
    `-c.electronDist=${path.join(work, 'electron')}`,
    `-c.directories.output=${path.join(work, 'dist')}`,
    '-c.npmRebuild=false',
  ];
  try {
    await promisify(execFile)(
      process.execPath,
      [path.join(root, 'node_modules/electron-builder/cli.js'), ...args],
      { cwd: root, maxBuffer: 1e8 },
    );
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`electron-builder failed:\n${stdout}\n${stderr}`, { cause: error });
  }
}

interface AsarNode {
  files?: Record<string, AsarNode>;
}

/** Every file (not folder) the asar's header lists, unpacked ones included (read once: the header holds them all). */
function asarFiles(node: AsarNode = getRawHeader(asarFile).header as AsarNode, prefix = ''): string[] {
  return Object.entries(node.files ?? {}).flatMap(([name, child]) => {
    const relative = prefix ? `${prefix}/${name}` : name;
    return child.files ? asarFiles(child, relative) : [relative];
  });
}

describe.runIf(process.platform === 'linux')(
  'the packaged app (electron-builder against a stand-in Electron)',
  () => {
    beforeAll(async () => {
      if (!existsSync(path.join(root, 'out/main/index.js')))
        throw new Error('out/ is not built: run `npm run build` first');
      await initLexer;
      await pack();
      files = asarFiles();
      unpacked = existsSync(unpackedDir) ? filesUnder(unpackedDir) : [];
      const report = {
        asarBytes: statSync(asarFile).size,
        unpackedBytes: unpacked.reduce((sum, f) => sum + statSync(path.join(unpackedDir, f)).size, 0),
        files: files.length,
      };
      const asarSize = (report.asarBytes / 1e6).toFixed(1);
      const unpackedSize = (report.unpackedBytes / 1e6).toFixed(2);
      console.log(
        `packaged app: app.asar ${asarSize} MB (${report.files} files), unpacked ${unpackedSize} MB`,
      );
      if (process.env['FIELDBOOK_PACKAGING_REPORT'])
        writeFileSync(process.env['FIELDBOOK_PACKAGING_REPORT'], JSON.stringify(report));
    }, 120_000);

    afterAll(() => rmSync(work, { recursive: true, force: true }));

    it('unpacks keytar’s native binding from the asar, and only that', () => {
      expect(unpacked).toEqual([KEYTAR_BINDING]);
      expect(files).toContain(KEYTAR_BINDING); // listed in the asar, read from app.asar.unpacked
    });

    it('holds no other native code', () => {
      expect(files.filter((file) => /\.(node|so|dll|dylib|exe)$/.test(file))).toEqual([KEYTAR_BINDING]);
    });

    it('holds no test, source, source map or type declaration', () => {
      const unwanted =
        /(\.test\.|\.spec\.|\.map$|\.tsx?$|\.d\.[cm]?ts$|^src\/|^e2e\/|^bench\/|^scripts\/|\.gyp$|\.cc$|Makefile)/;
      expect(files.filter((file) => unwanted.test(file))).toEqual([]);
    });

    it('holds no module but keytar: no ws, no dev dependency, no renderer library', () => {
      const modules = new Set(
        files.filter((file) => file.startsWith('node_modules/')).map((file) => file.split('/')[1]),
      );
      expect([...modules]).toEqual(['keytar']);
    });

    it('starts from a main that exists and imports only Electron, Node and the packaged keytar', () => {
      const manifest = JSON.parse(extractFile(asarFile, 'package.json').toString()) as { main: string };
      const main = path.posix.normalize(manifest.main);
      expect(files).toContain(main);
      const source = extractFile(asarFile, main).toString();
      // the module's own imports, static and dynamic, read by a lexer: a bundled library's comments
      // (p-queue's JSDoc examples say `import PQueue from 'p-queue'`) are not imports
      const imports = parseModule(source)[0]
        .map((entry) => entry.n ?? '')
        .filter((name) => name !== '' && !name.startsWith('.'));
      const builtin = (name: string) => name.startsWith('node:') || builtinModules.includes(name);
      const unresolved = imports
        .filter((name) => name !== 'electron' && !builtin(name))
        .filter((name) => !files.includes(`node_modules/${name}/package.json`));
      expect(imports).toContain('keytar');
      expect(unresolved).toEqual([]);
    });

    it('carries the preload and the renderer with every file its page loads', () => {
      expect(files).toContain('out/preload/index.cjs');
      const page = extractFile(asarFile, 'out/renderer/index.html').toString();
      const assets = [...page.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map(
        (match) => `out/renderer/${match[1]}`,
      );
      expect(assets.length).toBeGreaterThan(0);
      expect(assets.filter((asset) => !files.includes(asset))).toEqual([]);
    });

    it('fuses the packaged binary in afterPack (no run-as-node, app only from the asar)', async () => {
      const wire = await getCurrentFuseWire(path.join(appDir, 'fieldbook'));
      expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
      expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    });

    it('stays small: the asar under 15 MB', () => {
      expect(statSync(asarFile).size).toBeLessThan(15e6);
    });
  },
);
