/**
 * Each profile's secret for its identity index (sync/identities.ts): 256
 * random bits, kept beside the token in the keychain (account "<profile
 * id>#identities"), so the index file's entries cannot be checked against a
 * guessed username or address without the keychain. Where the keychain cannot
 * hold it (a demo profile, whose token is never stored either; a keychain
 * locked or gone), the secret lives in memory for this run only: an index
 * written with it is not read after a restart (its keyId no longer matches)
 * and the next sync writes it again. Never written to a file.
 */
import { randomBytes } from 'node:crypto';
import type { Keychain } from '../deps.ts';

const SECRET_BYTES = 32;

const accountOf = (profileId: string) => `${profileId}#identities`;

export class IdentitySecrets {
  readonly #keychain: Keychain;
  readonly #secrets = new Map<string, Buffer>();

  constructor(keychain: Keychain) {
    this.#keychain = keychain;
  }

  /** The profile's secret: from memory, else the keychain, else a new one (kept in the keychain where it can be). */
  async secretOf(profile: { id: string; isDemo?: boolean }): Promise<Buffer> {
    const known = this.#secrets.get(profile.id);
    if (known) return known;
    const secret =
      (profile.isDemo ? null : await this.#fromKeychain(profile.id)) ?? randomBytes(SECRET_BYTES);
    this.#secrets.set(profile.id, secret);
    return secret;
  }

  /** A deleted profile's secret goes with it (a keychain that cannot delete leaves an entry nothing reads). */
  async forget(profileId: string): Promise<void> {
    this.#secrets.delete(profileId);
    await this.#keychain.delete(accountOf(profileId)).catch(() => false);
  }

  /** The stored secret, or a new one stored; null when the keychain cannot keep one. */
  async #fromKeychain(profileId: string): Promise<Buffer | null> {
    try {
      const stored = await this.#keychain.get(accountOf(profileId));
      const secret = stored === null ? null : Buffer.from(stored, 'base64');
      if (secret?.length === SECRET_BYTES) return secret;
      const fresh = randomBytes(SECRET_BYTES);
      await this.#keychain.set(accountOf(profileId), fresh.toString('base64'));
      return fresh;
    } catch {
      return null;
    }
  }
}
