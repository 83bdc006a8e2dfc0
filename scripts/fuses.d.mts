import type { FuseConfig } from '@electron/fuses';

export declare const releaseFuses: FuseConfig;
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}
export declare function packagedBinary(context: AfterPackContext): string;
export default function afterPack(context: AfterPackContext): Promise<void>;
