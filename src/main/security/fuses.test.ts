import { FuseV1Options } from '@electron/fuses';
import { describe, expect, it } from 'vitest';
import { packagedBinary, releaseFuses } from '../../../scripts/fuses.mjs';

describe('release fuses', () => {
  it('turns off every way to run the binary as something else', () => {
    expect(releaseFuses[FuseV1Options.RunAsNode]).toBe(false);
    expect(releaseFuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(releaseFuses[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
  });

  it('loads the app only from an integrity-checked ASAR', () => {
    expect(releaseFuses[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(releaseFuses[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
  });

  it('encrypts cookies and grants file:// no extra privileges', () => {
    expect(releaseFuses[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(releaseFuses[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
  });

  it('fuses the binary electron-builder produced on each platform', () => {
    const context = (platform: string) => ({
      appOutDir: '/dist/out',
      electronPlatformName: platform,
      packager: { appInfo: { productFilename: 'Fieldbook' }, executableName: 'fieldbook' },
    });
    expect(packagedBinary(context('linux'))).toBe('/dist/out/fieldbook');
    expect(packagedBinary(context('win32'))).toBe('/dist/out/Fieldbook.exe');
    expect(packagedBinary(context('darwin'))).toBe('/dist/out/Fieldbook.app');
  });
});
