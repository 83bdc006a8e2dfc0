import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { afterEach, describe, expect, it } from 'vitest';
import afterPack, { fusesFor, packagedBinary, releaseFuses } from '../../../scripts/fuses.mjs';
import { writeFusedExecutable } from '../../../scripts/testing/stand-in-electron.ts';

describe('release fuses', () => {
  it('turns off every way to run the binary as something else', () => {
    expect(releaseFuses[FuseV1Options.RunAsNode]).toBe(false);
    expect(releaseFuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(releaseFuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
  });

  it('loads the app only from an integrity-checked ASAR on macOS and Windows', () => {
    expect(releaseFuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(releaseFuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
  });

  it('encrypts cookies and grants file:// no extra privileges', () => {
    expect(releaseFuses[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(releaseFuses[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
  });

  it('leaves ASAR integrity validation off on Linux, where Electron does not check it', () => {
    expect(fusesFor('linux')[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(false);
    expect(fusesFor('linux')[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(fusesFor('win32')).toEqual(releaseFuses);
    expect(fusesFor('darwin')).toEqual(releaseFuses);
  });

  const context = (platform: string, appOutDir = '/dist/out') => ({
    appOutDir,
    electronPlatformName: platform,
    packager: { appInfo: { productFilename: 'Fieldbook' }, executableName: 'fieldbook' },
  });

  it('fuses the binary electron-builder produced on each platform', () => {
    expect(packagedBinary(context('linux'))).toBe('/dist/out/fieldbook');
    expect(packagedBinary(context('win32'))).toBe('/dist/out/Fieldbook.exe');
    expect(packagedBinary(context('darwin'))).toBe('/dist/out/Fieldbook.app');
  });
});

describe('the afterPack step', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const context = (platform: string, appOutDir: string) => ({
    appOutDir,
    electronPlatformName: platform,
    packager: { appInfo: { productFilename: 'Fieldbook' }, executableName: 'fieldbook' },
  });
  const asState = (on: boolean | undefined) => (on ? FuseState.ENABLE : FuseState.DISABLE);

  it.each(['linux', 'win32'])(
    'writes the %s configuration into the packaged binary, fuse by fuse',
    async (platform) => {
      const appOutDir = await mkdtemp(path.join(tmpdir(), 'fieldbook-fuses-'));
      dirs.push(appOutDir);
      const binary = packagedBinary(context(platform, appOutDir));
      writeFusedExecutable(binary);
      await afterPack(context(platform, appOutDir));
      const wire = await getCurrentFuseWire(binary);
      const wanted = fusesFor(platform);
      for (const fuse of Object.values(FuseV1Options).filter(
        (v): v is FuseV1Options => typeof v === 'number' && v in wanted,
      )) {
        expect({ fuse: FuseV1Options[fuse], state: wire[fuse] }).toEqual({
          fuse: FuseV1Options[fuse],
          state: asState(wanted[fuse]),
        });
      }
    },
  );

  it('fails the build when the binary has no fuse wire, rather than ship it unfused', async () => {
    const appOutDir = await mkdtemp(path.join(tmpdir(), 'fieldbook-fuses-'));
    dirs.push(appOutDir);
    await writeFile(path.join(appOutDir, 'fieldbook'), '#!/bin/sh\n');
    await expect(afterPack(context('linux', appOutDir))).rejects.toThrow(/sentinel/);
  });
});
