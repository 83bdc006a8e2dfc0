/**
 * Validating the base URL a user types: http or https, no credentials, no
 * query, and the path ending in the version segment /v1 (a trailing slash is
 * accepted and removed).
 */
export type BaseUrlCheck = { ok: true; baseUrl: string } | { ok: false; message: string };

export function normalizeBaseUrl(input: string): BaseUrlCheck {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, message: 'The API address is not a valid URL (for example https://example.com/api/v1).' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'The API address must start with https:// (or http:// for a local server).' };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'The API address must not contain a user name or password: the token is entered separately.' };
  }
  if (url.search || url.hash) {
    return { ok: false, message: 'The API address must not contain a query (?…) or a fragment (#…).' };
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/v1')) {
    return { ok: false, message: 'The API address must end with the version segment /v1 (for example https://example.com/api/v1).' };
  }
  return { ok: true, baseUrl: `${url.origin}${path}` };
}
