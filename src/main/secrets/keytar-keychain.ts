/**
 * The OS keychain through keytar (service "Fieldbook", one entry per profile).
 * keytar is loaded lazily so that a missing native module or Secret Service
 * shows as "keychain unavailable" rather than a crash. There is no plain-text
 * fallback, ever.
 */
import type { KeychainStatus } from '../../shared/ipc.ts';
import type { Keychain } from '../deps.ts';

export const KEYCHAIN_SERVICE = 'Fieldbook';

export const KEYCHAIN_UNAVAILABLE_MESSAGE =
  'Fieldbook keeps API tokens only in your system keychain, and none could be reached. ' +
  'On Linux, install and unlock a Secret Service such as GNOME Keyring (or KWallet), then try again. ' +
  'Fieldbook will not store tokens anywhere else.';

type KeytarModule = typeof import('keytar');

/** A Secret Service that does not answer can hang D-Bus calls: bound the wait. */
const PROBE_TIMEOUT_MS = 5_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the keychain did not answer')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export class KeytarKeychain implements Keychain {
  readonly #service: string;
  #module: Promise<KeytarModule> | null = null;

  constructor(service: string = KEYCHAIN_SERVICE) {
    this.#service = service;
  }

  #keytar(): Promise<KeytarModule> {
    this.#module ??= import('keytar').then((m) => ('default' in m && m.default ? (m.default as KeytarModule) : m));
    return this.#module;
  }

  async get(account: string): Promise<string | null> {
    return (await this.#keytar()).getPassword(this.#service, account);
  }

  async set(account: string, secret: string): Promise<void> {
    await (await this.#keytar()).setPassword(this.#service, account, secret);
  }

  async delete(account: string): Promise<boolean> {
    return (await this.#keytar()).deletePassword(this.#service, account);
  }

  async available(): Promise<KeychainStatus> {
    try {
      const keytar = await this.#keytar();
      await withTimeout(keytar.findCredentials(this.#service), PROBE_TIMEOUT_MS);
      return { available: true };
    } catch {
      return { available: false, message: KEYCHAIN_UNAVAILABLE_MESSAGE };
    }
  }
}
