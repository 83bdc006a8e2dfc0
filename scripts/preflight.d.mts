export declare function requiredNodeRange(packageJsonPath: string): string;
export declare function nodeVersionProblem(version: string, range: string): string | null;
export declare function harnessCacheNote(port: string | number): string;
export declare function harnessPortOrExit(env: Record<string, string | undefined>): Promise<string>;
export declare function portIsFree(port: number): Promise<boolean>;
export declare function choosePort(
  env: Record<string, string | undefined>,
  isFree?: (port: number) => Promise<boolean>,
  preferred?: number,
): Promise<{ port: number; message: string | null } | { port: null; message: string }>;
