type Env = Record<string, string | undefined>;
type Found = { binary: string; reason: null } | { binary: null; reason: string };
type Log = (line: string) => void;

export declare const DEFAULT_DOWNLOAD_TIMEOUT_S: number;
export declare const QUICK_EXIT_MS: number;
export declare function findElectron(root: string, env?: Env): Found;
export declare function downloadSkipped(env: Env): boolean;
export declare function displayProblem(platform: string, env: Env): string | null;
export declare function provisionElectron(options: { root: string; env?: Env; log?: Log }): Promise<Found>;
export declare function chooseShell(options: {
  root: string;
  env?: Env;
  platform?: string;
  log?: Log;
}): Promise<{ shell: 'electron'; binary: string } | { shell: 'browser'; reason: string }>;
export declare function runElectron(options: {
  binary: string;
  root: string;
  quickExitMs?: number;
  spawnImpl?: typeof import('node:child_process').spawn;
}): Promise<{ code: number } | { failedToStart: string }>;
export declare function browserModeLine(reason: string): string;
