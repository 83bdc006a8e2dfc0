/**
 * Validating the base URL a user types: https (http only for a server on this
 * machine: the token would cross the network in cleartext), no credentials, no
 * query, and the path ending in the version segment /v1 (a trailing slash is
 * accepted and removed).
 */
export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; message: string };

export function normalizeBaseUrl(input: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return {
      ok: false,
      message: 'The API address is not a valid URL (for example https://example.com/api/v1).',
    };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return {
      ok: false,
      message: 'The API address must start with https:// (or http:// for a local server).',
    };
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return {
      ok: false,
      message:
        'The API address must start with https://: over http:// the token would cross the network readable by anyone on it (http:// is for a server on this computer only).',
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      message: 'The API address must not contain a user name or password: the token is entered separately.',
    };
  }
  if (url.search || url.hash) {
    return { ok: false, message: 'The API address must not contain a query (?…) or a fragment (#…).' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    return {
      ok: false,
      message:
        'The API address must end with the version segment /v1 (for example https://example.com/api/v1).',
    };
  }
  return { ok: true, baseUrl: `${url.origin}${path}` };
}

/**
 * The transport rule alone, for an address already stored: a profile saved by an
 * older build or edited by hand in profiles.json never went through
 * `normalizeBaseUrl`, so the client re-checks it before the token is sent. The
 * other rules (the /v1 path, no query) are left to the save: breaking them sends
 * nothing anyone else can read. Null when the token may be sent there.
 */
export function cleartextRefusal(baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return 'This profile’s API address is not a valid URL. Edit the profile and enter its https:// address and its token again.';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return null;
  return (
    `This profile’s API address (${url.protocol}//${url.host}) would send the token over the network unencrypted, so nothing was sent. ` +
    'Edit the profile: change the address to https:// and enter the token again (http:// is for a server on this computer only).'
  );
}

/**
 * localhost, 127.0.0.0/8 or ::1, as written in the URL (no DNS: a name that merely resolves to 127.0.0.1 is not
 * loopback).
 */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
