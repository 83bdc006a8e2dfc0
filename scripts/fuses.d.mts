import type { FuseConfig } from '@electron/fuses';

export declare const releaseFuses: FuseConfig;
export declare function enforcesAsarIntegrity(platform: string): boolean;
export declare function fusesFor(platform: string): FuseConfig;
export interface AfterPackContext {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}
export declare function packagedBinary(context: AfterPackContext): string;
export default function afterPack(context: AfterPackContext): Promise<void>;
