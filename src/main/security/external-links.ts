/**
 * Which links may leave the app for the system browser (`shell.openExternal`).
 * Only http(s) URLs that parse, with no credentials in them, to a named host that
 * is not this machine: a link in synced data must not reach local services (the
 * demo server, a router's admin page) or smuggle a `javascript:`/`file:` URL.
 * Names that spell a local address (127.0.0.1.nip.io) are refused outright, and
 * `isPublicDestination` resolves the name before opening and refuses any local address.
 */
import { parseUrl } from './origin.ts';

const MAX_EXTERNAL_URL_LENGTH = 2048;

/** Hosts that point back at this machine or its private network. */
function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host.includes(':')) {
    // IPv6: loopback, unspecified, unique-local, link-local, and IPv4-mapped addresses
    return (
      host === '::1' ||
      host === '::' ||
      /^f[cd]/.test(host) ||
      host.startsWith('fe80:') ||
      host.startsWith('::ffff:')
    );
  }
  const ipv4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!ipv4) return false;
  const [a, b] = [Number(ipv4[1]), Number(ipv4[2])];
  return (
    a === 127 ||
    a === 0 ||
    a === 10 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168)
  );
}

/**
 * A name that spells a local IPv4 address in its labels (127.0.0.1.nip.io,
 * 10-0-0-1.sslip.io): wildcard DNS services resolve those to the address itself.
 */
function spellsLocalAddress(hostname: string): boolean {
  const host = hostname.toLowerCase();
  const dotted = host.match(/(?:^|[.-])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?=$|[.-])/g) ?? [];
  return dotted.some((found) => {
    const parts = found.replace(/^[.-]/, '').split(/[.-]/);
    return isLocalHost(parts.join('.'));
  });
}

/** An address (as DNS returns it) that is this machine or its private network. */
function isLocalAddress(address: string): boolean {
  return isLocalHost(address.includes(':') ? `[${address}]` : address);
}

function isControlOrBidi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * True when `raw` may be opened in the system browser.
 * `allowedHosts`, when given, limits the hosts (exact name or a subdomain of one).
 */
export function isSafeExternalUrl(raw: unknown, allowedHosts?: readonly string[]): raw is string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_EXTERNAL_URL_LENGTH) return false;
  // Whitespace, control and bidi characters are stripped or reordered in surprising ways: refuse them outright.
  if (/\s/.test(raw) || [...raw].some(isControlOrBidi)) return false;
  const url = parseUrl(raw);
  if (!url) return false;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.hostname === '' || isLocalHost(url.hostname) || spellsLocalAddress(url.hostname)) return false;
  if (allowedHosts) {
    const host = url.hostname.toLowerCase();
    return allowedHosts.some((allowed) => {
      const name = allowed.toLowerCase();
      return host === name || host.endsWith(`.${name}`);
    });
  }
  return true;
}

export type Lookup = (hostname: string) => Promise<readonly { address: string; family: number }[]>;

/**
 * The check that needs DNS, made just before opening: true only when the URL is
 * safe (isSafeExternalUrl) and every address its host resolves to is public. A
 * name that does not resolve is refused (there is nothing to open anyway).
 */
export async function isPublicDestination(raw: unknown, lookup: Lookup): Promise<boolean> {
  if (!isSafeExternalUrl(raw)) return false;
  const hostname = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = await lookup(hostname);
    return addresses.length > 0 && !addresses.some((a) => isLocalAddress(a.address));
  } catch {
    return false;
  }
}
