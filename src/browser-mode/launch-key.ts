/**
 * The browser mode's launch key: 256 random bits, new at every start, carried in
 * the page address the browser mode prints (`/?key=…`) and never served in any
 * file. The page's WebSocket opens only with it: another local process (or a web
 * page reaching 127.0.0.1 by DNS rebinding) cannot learn it, and Origin and Host
 * prove nothing on their own (any non-browser client forges them).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

/** The page-address parameter that carries the launch key (read by bridge.ts, which runs in the page). */
export const LAUNCH_KEY_PARAM = 'key';

/** 128 bits in base64url: a key given by the caller must carry at least this much. */
const MIN_KEY_LENGTH = 22;

/** A new key, or the one given (a browser mode that replaces another on the same port under an open page). */
export function launchKeyFrom(given?: string): string {
  const key = given ?? randomBytes(32).toString('base64url');
  if (key.length < MIN_KEY_LENGTH) throw new Error('The launch key must carry at least 128 bits.');
  return key;
}

/** Whether `given` is this launch's key (constant time). */
export function isLaunchKey(given: string | null, key: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The address the browser mode prints: the only place the key is given. */
export function pageAddress(origin: string, key: string): string {
  return `${origin}/?${LAUNCH_KEY_PARAM}=${key}`;
}

/** The key a page address carries ('' when none). */
export function launchKeyOf(address: string): string {
  return new URL(address).searchParams.get(LAUNCH_KEY_PARAM) ?? '';
}
