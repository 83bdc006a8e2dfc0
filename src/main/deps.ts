/**
 * What the handlers need from their host (the Electron shell, the browser
 * harness, or a test): where settings live, the keychain, fetch, and the demo.
 */
import type { KeychainStatus } from '../shared/ipc.ts';

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
  demo: { start(): Promise<{ baseUrl: string; token: string }> };
  now?: () => Date;
  /** Tuning for tests: page size and timeouts of the API client. */
  sync?: { limit?: number; maxUnacked?: number; /** after this long with no acknowledgement a sync gives way to a new one */ stalledAfterMs?: number };
  api?: { timeoutMs?: number; maxRetries?: number; sleep?: (ms: number) => Promise<void> };
}
