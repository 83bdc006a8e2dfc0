/** Keychain implementations that need no OS service: for tests and for hosts that inject their own. */
import type { KeychainStatus } from '../../shared/ipc.ts';
import type { Keychain } from '../deps.ts';

/** Secrets in memory only (tests). `unavailable` simulates a machine without a Secret Service. */
export class MemoryKeychain implements Keychain {
  readonly entries = new Map<string, string>();
  unavailableMessage: string | null = null;

  async get(account: string): Promise<string | null> {
    this.#check();
    return this.entries.get(account) ?? null;
  }

  async set(account: string, secret: string): Promise<void> {
    this.#check();
    this.entries.set(account, secret);
  }

  async delete(account: string): Promise<boolean> {
    this.#check();
    return this.entries.delete(account);
  }

  async available(): Promise<KeychainStatus> {
    return this.unavailableMessage === null
      ? { available: true }
      : { available: false, message: this.unavailableMessage };
  }

  #check(): void {
    if (this.unavailableMessage !== null) throw new Error(this.unavailableMessage);
  }
}
