/**
 * The Content-Security-Policy, sent as a real response header by the app's
 * protocol handler (and by the browser harness): a `<meta>` tag cannot carry
 * `frame-ancestors`, and a header cannot be removed by injected markup.
 * All API traffic goes through main, so the renderer needs no `connect-src` to the API.
 */
const headers: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};
// One string literal, assigned this way so Electronegativity's CSP check can read and evaluate it.
headers['Content-Security-Policy'] =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export const CONTENT_SECURITY_POLICY: string = headers['Content-Security-Policy'];

/** Headers on every response that carries the renderer. */
export function securityHeaders(): Record<string, string> {
  return { ...headers };
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Content type by file extension; unknown files are served as opaque bytes (nosniff keeps them inert). */
export function contentTypeFor(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  const extension = dot === -1 ? '' : filePath.slice(dot).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}
