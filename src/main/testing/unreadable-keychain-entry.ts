/**
 * Run in a D-Bus session of its own (keychain-unreadable.test.ts starts one):
 * stores a token, locks the keyring's collection (no prompt can unlock it here,
 * so the entry's value cannot be read: libsecret then logs
 * `secret_value_get_text: assertion 'value' failed`), and prints on one JSON line
 * what Fieldbook's keychain answers. A crash of the keychain binding ends this
 * process by a signal instead of printing.
 *
 *   node --experimental-strip-types --no-warnings src/main/testing/unreadable-keychain-entry.ts
 */
import { execFileSync } from 'node:child_process';
import { KeytarKeychain } from '../secrets/keytar-keychain.ts';

const LOGIN_COLLECTION = '/org/freedesktop/secrets/collection/login';
const SERVICE = 'Fieldbook-unreadable-entry';

function lockKeyring(): void {
  const call = ['--session', '--print-reply', '--dest=org.freedesktop.secrets', '/org/freedesktop/secrets'];
  execFileSync(
    'dbus-send',
    [...call, 'org.freedesktop.Secret.Service.Lock', `array:objpath:${LOGIN_COLLECTION}`],
    { stdio: 'ignore' },
  );
}

/** What a call answered, or its error's message. */
async function outcome<T>(call: () => Promise<T>): Promise<{ value: T } | { error: string }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const keychain = new KeytarKeychain(SERVICE);
await keychain.set('profile-1', 'a-token-of-this-profile');
lockKeyring();
const available = await outcome(() => keychain.available());
const token = await outcome(() => keychain.get('profile-1'));
console.log(JSON.stringify({ available, token }));
