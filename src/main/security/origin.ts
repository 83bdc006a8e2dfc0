/**
 * The renderer's origin. It is chosen once, before the first release: IndexedDB
 * (the whole offline cache and the outbox) is stored per origin, so changing the
 * scheme or host later would strand every user's data.
 *
 * A registered `app://` scheme rather than `file://`: a `file://` page that ever
 * suffered an XSS could read local files, and every `file://` URL shares one origin.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'fieldbook';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Parses a URL, or null when it does not parse. */
export function parseUrl(raw: string): URL | null {
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * True when `raw` is a URL of the app's own origin. Compares parsed parts, never
 * `startsWith`: `app://fieldbook.evil/`, `app://fieldbook@evil/` and
 * `http://x/?next=app://fieldbook` are all foreign. (Node's URL reports the origin
 * of a non-special scheme as "null", so protocol and host are compared instead.)
 */
export function isAppUrl(raw: string): boolean {
  const url = parseUrl(raw);
  if (!url) return false;
  return (
    url.protocol === `${APP_SCHEME}:` &&
    url.host.toLowerCase() === APP_HOST &&
    url.username === '' &&
    url.password === ''
  );
}

/**
 * The app's own pages: the app origin, plus — in development only — the
 * electron-vite dev server's loopback origin (compared as a parsed origin).
 */
export function isOwnUrl(raw: string, devOrigin?: string | null): boolean {
  if (isAppUrl(raw)) return true;
  if (!devOrigin) return false;
  const url = parseUrl(raw);
  return url !== null && url.origin !== 'null' && url.origin === devOrigin;
}
