/**
 * Maps a request for the renderer to a file inside the built renderer folder, and
 * refuses everything else: `..` segments (plain or percent-encoded), encoded
 * slashes and backslashes, NUL bytes, absolute paths, other origins.
 */
import path from 'node:path';
import { APP_HOST, APP_SCHEME, parseUrl } from './origin.ts';

/**
 * Resolves a URL path (`/assets/x.js`, still percent-encoded) to a file under `root`,
 * or null when it would fall outside. `/` is the app's `index.html`.
 */
export function resolveRequestPath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null; // malformed percent-encoding
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '..' || segment === '.')) return null;
  const relative = segments.length === 0 ? 'index.html' : segments.join('/');
  const base = path.resolve(root);
  const resolved = path.resolve(base, relative);
  const fromRoot = path.relative(base, resolved);
  if (fromRoot === '' || fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) return null;
  return resolved;
}

/** Resolves an `app://fieldbook/...` URL to a file under `root`, or null. */
export function resolveAppPath(root: string, url: string): string | null {
  const parsed = parseUrl(url);
  if (!parsed || parsed.protocol !== `${APP_SCHEME}:` || parsed.host.toLowerCase() !== APP_HOST) return null;
  if (parsed.username !== '' || parsed.password !== '') return null;
  return resolveRequestPath(root, parsed.pathname);
}
