/**
 * The real keychain. Needs a Secret Service (run inside dbus-run-session with
 * an unlocked gnome-keyring, as .ci/run does); reports itself skipped, with
 * the reason, where none is reachable — except in CI, which always has one,
 * so a missing keychain there fails rather than hides these tests.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeytarKeychain } from './keytar-keychain.ts';

const keychain = new KeytarKeychain(`Fieldbook-test-${randomUUID()}`);
const status = await keychain.available();
const skip = !status.available && !process.env.CI;
const reason = skip ? ` (skipped: no Secret Service reachable — ${status.message})` : '';

describe(`keytar keychain${reason}`, () => {
  it.skipIf(skip)('stores, reads and deletes a token', async () => {
    const account = `profile-${randomUUID()}`;
    await keychain.set(account, 'token-value-1234');
    expect(await keychain.get(account)).toBe('token-value-1234');
    expect(await keychain.delete(account)).toBe(true);
    expect(await keychain.get(account)).toBeNull();
  });

  it.skipIf(skip)('answers null for an account it never stored', async () => {
    expect(await keychain.get(`missing-${randomUUID()}`)).toBeNull();
  });

  it('says whether a keychain is reachable, and when not, why in the user’s words', () => {
    expect(status.available ? status : status.message).toEqual(
      status.available ? { available: true } : expect.stringContaining('keychain'),
    );
  });
});
