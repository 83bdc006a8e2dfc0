// Electron fuses for packaged release builds, flipped into the binary by the
// electron-builder afterPack hook below (electron-builder.yml: afterPack).
//
// The e2e build is left UNFUSED on purpose: Playwright's `_electron.launch` drives
// the app through the inspector (`--inspect`/`--remote-debugging-port`), which
// EnableNodeCliInspectArguments=false would refuse. Only what ships is fused.
import path from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

/** The release fuses where Electron enforces ASAR integrity (macOS, Windows). */
export const releaseFuses = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false, // ELECTRON_RUN_AS_NODE would turn the app into a plain Node
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false, // NODE_OPTIONS could preload code
  [FuseV1Options.EnableNodeCliInspectArguments]: false, // --inspect would open a debugger on main
  // electron-builder writes the asar's hash into Info.plist (macOS) or the .exe's resources (Windows)
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false, // the app is served from app://, not file://
  resetAdHocDarwinSignature: true,
};

/** Where Electron checks the asar against the hash embedded at packaging (not on Linux). */
export const enforcesAsarIntegrity = (platform) => ['darwin', 'mas', 'win32'].includes(platform);

/** The fuses for one platform: ASAR integrity validation only where Electron enforces it. */
export function fusesFor(platform) {
  return {
    ...releaseFuses,
    [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: enforcesAsarIntegrity(platform),
  };
}

/** The Electron binary electron-builder produced, per platform. */
export function packagedBinary(context) {
  const name = context.packager.appInfo.productFilename;
  switch (context.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(context.appOutDir, `${name}.app`);
    case 'win32':
      return path.join(context.appOutDir, `${name}.exe`);
    default:
      return path.join(context.appOutDir, context.packager.executableName);
  }
}

/** electron-builder afterPack hook: a binary without a fuse wire fails the build (flipFuses throws). */
export default async function afterPack(context) {
  const binary = packagedBinary(context);
  await flipFuses(binary, fusesFor(context.electronPlatformName));
  console.log(`  • release fuses applied  file=${binary}`);
}
