// Electron fuses for packaged release builds, flipped into the binary by the
// electron-builder afterPack hook below (electron-builder.yml: afterPack).
//
// The e2e build is left UNFUSED on purpose: Playwright's `_electron.launch` drives
// the app through the inspector (`--inspect`/`--remote-debugging-port`), which
// EnableNodeCliInspectArguments=false would refuse. Only what ships is fused.
import path from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

export const releaseFuses = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false, // ELECTRON_RUN_AS_NODE would turn the app into a plain Node
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false, // NODE_OPTIONS could preload code
  [FuseV1Options.EnableNodeCliInspectArguments]: false, // --inspect would open a debugger on main
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false, // the app is served from app://, not file://
  resetAdHocDarwinSignature: true,
};

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

/** electron-builder afterPack hook. */
export default async function afterPack(context) {
  await flipFuses(packagedBinary(context), releaseFuses);
}
