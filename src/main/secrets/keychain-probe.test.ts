/**
 * The keychain probe: a keychain that is slow to answer (an unlock prompt, a
 * busy machine) is waited for and counts as available; one that refuses is
 * absent, or locked, and says what to do before trying again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeytarKeychain, type KeytarLike } from './keytar-keychain.ts';

function fakeKeytar(getPassword: KeytarLike['getPassword']): KeytarLike {
  return { getPassword, setPassword: async () => undefined, deletePassword: async () => false };
}

const answersAfter = (ms: number) =>
  fakeKeytar(() => new Promise((resolve) => setTimeout(() => resolve(null), ms)));
const refuses = (message: string) => fakeKeytar(async () => Promise.reject(new Error(message)));

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the keychain probe', () => {
  it('waits for a keychain that answers after 8 seconds, and finds it available (not absent)', async () => {
    const keychain = new KeytarKeychain('Fieldbook-test', async () => answersAfter(8_000));
    let status: unknown = 'no answer yet';
    void keychain.available().then((s) => (status = s));
    await vi.advanceTimersByTimeAsync(7_999);
    expect(status).toBe('no answer yet');
    await vi.advanceTimersByTimeAsync(1);
    expect(status).toEqual({ available: true });
  });

  it('asks a slow keychain once however many callers wait for it', async () => {
    const getPassword = vi.fn(() => new Promise<null>((resolve) => setTimeout(() => resolve(null), 8_000)));
    const keychain = new KeytarKeychain('Fieldbook-test', async () => fakeKeytar(getPassword));
    const both = Promise.all([keychain.available(), keychain.available()]);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(await both).toEqual([{ available: true }, { available: true }]);
    expect(getPassword).toHaveBeenCalledTimes(1);
  });

  it('reports a keychain that refuses as absent, saying how to fix it and to try again', async () => {
    const keychain = new KeytarKeychain('Fieldbook-test', async () =>
      refuses('The name org.freedesktop.secrets was not provided by any .service files'),
    );
    expect(await keychain.available()).toEqual({
      available: false,
      reason: 'absent',
      message: expect.stringMatching(/GNOME Keyring.*Try again/),
    });
  });

  it('reports a locked keychain as locked: "unlock your keychain", then try again', async () => {
    const keychain = new KeytarKeychain('Fieldbook-test', async () =>
      refuses('Cannot create an item in a locked collection'),
    );
    expect(await keychain.available()).toEqual({
      available: false,
      reason: 'locked',
      message: expect.stringMatching(/Unlock your keychain.*Try again/),
    });
  });

  it('says a keychain that never answers has not answered yet (maybe an unlock prompt), not that there is none', async () => {
    const keychain = new KeytarKeychain('Fieldbook-test', async () =>
      fakeKeytar(() => new Promise(() => undefined)),
    );
    const status = keychain.available();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await status).toEqual({
      available: false,
      reason: 'no-answer',
      message: expect.stringMatching(/not answered.*unlock.*Try again/),
    });
  });

  it('answers anew when asked again: a keychain unlocked meanwhile is available', async () => {
    let locked = true;
    const keychain = new KeytarKeychain('Fieldbook-test', async () =>
      fakeKeytar(async () => (locked ? Promise.reject(new Error('collection is locked')) : null)),
    );
    expect(await keychain.available()).toMatchObject({ available: false, reason: 'locked' });
    locked = false;
    expect(await keychain.available()).toEqual({ available: true });
  });

  it('says absent when keytar itself cannot load, and loads it again on the next try', async () => {
    const load = vi
      .fn<() => Promise<KeytarLike>>()
      .mockRejectedValueOnce(new Error('keytar.node: cannot open shared object'))
      .mockResolvedValueOnce(answersAfter(0));
    const keychain = new KeytarKeychain('Fieldbook-test', load);
    expect(await keychain.available()).toMatchObject({ available: false, reason: 'absent' });
    const again = keychain.available();
    await vi.advanceTimersByTimeAsync(0);
    expect(await again).toEqual({ available: true });
  });
});
