/**
 * What the handlers need from their host (the Electron shell, the browser
 * harness, or a test): where settings live, the keychain, fetch, and the demo.
 */
import type { DemoServerChange, KeychainStatus, ParsedArg } from '../shared/ipc.ts';

export interface Keychain {
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<boolean>;
  available(): Promise<KeychainStatus>;
}

export interface MainDeps {
  settingsDir: string;
  keychain: Keychain;
  fetch: typeof globalThis.fetch;
  demo: {
    start(): Promise<{ baseUrl: string; token: string }>;
    /**
     * the demo's "another admin": change its server's data (absent where the demo is a server Fieldbook does not run)
     */
    change?(arg: ParsedArg<'demo:serverChange'>): Promise<DemoServerChange>;
  };
  now?: () => Date;
  /**
   * Prints the window's report view to a PDF saved where the user picks (Electron's printToPDF and save dialog); absent
   * in the harness.
   */
  savePdf?: (arg: {
    pageSize: 'A4' | 'Letter';
    fileName: string;
  }) => Promise<{ saved: boolean; fileName?: string }>;
  /** Tuning for tests: page size and timeouts of the API client. */
  sync?: {
    limit?: number;
    maxUnacked?: number;
    /** after this long with no acknowledgement a sync gives way to a new one */ stalledAfterMs?: number;
  };
  api?: { timeoutMs?: number; maxRetries?: number; sleep?: (ms: number) => Promise<void> };
  /**
   * Tuning for tests: more people than this and a new profile asks which sites to keep before its first sync (20,000 by
   * default).
   */
  manyPeopleAbove?: number;
}
