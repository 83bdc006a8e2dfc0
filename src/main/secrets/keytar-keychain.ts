/**
 * The OS keychain through keytar (service "Fieldbook", one entry per profile).
 * keytar is loaded lazily so that a missing native module or Secret Service
 * shows as "keychain unavailable" rather than a crash. There is no plain-text
 * fallback, ever.
 */
import type { KeychainStatus } from '../../shared/ipc.ts';
import type { Keychain } from '../deps.ts';

export const KEYCHAIN_SERVICE = 'Fieldbook';

const ABSENT_MESSAGE =
  'Fieldbook keeps API tokens only in your system keychain, and none could be reached. ' +
  'On Linux, install and unlock a Secret Service such as GNOME Keyring (or KWallet), then choose Try again. ' +
  'Fieldbook will not store tokens anywhere else.';
const LOCKED_MESSAGE =
  'Your system keychain is locked. Unlock your keychain (on Linux, GNOME Keyring or KWallet; on a Mac, Keychain Access), then choose Try again.';
const NO_ANSWER_MESSAGE =
  'The system keychain has not answered for two minutes: it may be waiting for you to unlock it in another window. Unlock your keychain, then choose Try again.';

type KeytarModule = typeof import('keytar');
/**
 * What Fieldbook uses of keytar (a test can stand in for it). Never
 * `findCredentials`: it reads every entry of the service, and on Linux an entry
 * whose value cannot be read (its keyring locked with no prompt to unlock it)
 * crashes the process (libsecret: `secret_value_get_text: assertion 'value'
 * failed`, then SIGSEGV in keytar). `getPassword` reads one entry and answers
 * null for such an entry (keychain-unreadable.test.ts).
 */
export type KeytarLike = Pick<KeytarModule, 'getPassword' | 'setPassword' | 'deletePassword'>;

/** The account the probe asks for: none is ever stored under it, so the probe reads no secret. */
const PROBE_ACCOUNT = 'fieldbook-keychain-probe';

/**
 * A keychain that is slow to answer (an unlock prompt, a busy machine) is
 * waited for: only after this long does the probe give up, and then it says
 * "no answer yet", never "there is no keychain".
 */
const PROBE_PATIENCE_MS = 120_000;
const NO_ANSWER = new Error('the keychain did not answer');

function withPatience<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(NO_ANSWER), ms);
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

/** What a failed probe means, in the user's words: locked (Secret Service, macOS), no answer, or none at all. */
function unavailable(err: unknown): KeychainStatus {
  if (err === NO_ANSWER) return { available: false, reason: 'no-answer', message: NO_ANSWER_MESSAGE };
  const text = err instanceof Error ? err.message : String(err);
  if (/locked|unlock|interaction is not allowed|user canceled|dismissed/i.test(text))
    return { available: false, reason: 'locked', message: LOCKED_MESSAGE };
  return { available: false, reason: 'absent', message: ABSENT_MESSAGE };
}

const loadKeytar = (): Promise<KeytarLike> =>
  import('keytar').then((m) => ('default' in m && m.default ? (m.default as KeytarModule) : m));

export class KeytarKeychain implements Keychain {
  readonly #service: string;
  readonly #load: () => Promise<KeytarLike>;
  #module: Promise<KeytarLike> | null = null;
  /** the probe in flight: every caller during an unlock prompt shares its answer */
  #probe: Promise<KeychainStatus> | null = null;

  constructor(service: string = KEYCHAIN_SERVICE, load: () => Promise<KeytarLike> = loadKeytar) {
    this.#service = service;
    this.#load = load;
  }

  #keytar(): Promise<KeytarLike> {
    // a module that failed to load is tried again on the next call (Try again)
    this.#module ??= this.#load().catch((err: unknown) => {
      this.#module = null;
      throw err;
    });
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

  available(): Promise<KeychainStatus> {
    this.#probe ??= this.#probeOnce().finally(() => {
      this.#probe = null;
    });
    return this.#probe;
  }

  async #probeOnce(): Promise<KeychainStatus> {
    try {
      const keytar = await this.#keytar();
      await withPatience(keytar.getPassword(this.#service, PROBE_ACCOUNT), PROBE_PATIENCE_MS);
      return { available: true };
    } catch (err) {
      return unavailable(err);
    }
  }
}
