/**
 * The browser mode's HTTP side: the BUILT renderer with the app's CSP and
 * security headers, the page given one extra module script (the bridge, from
 * this origin: no inline script), and nothing for a request under a foreign
 * host name (DNS rebinding) or with a method other than GET and HEAD.
 */
import { readFile } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { contentTypeFor, securityHeaders } from '../main/security/csp.ts';
import { resolveRequestPath } from '../main/security/paths.ts';
import { buildBridgeScript, injectBridge } from './page.ts';
import { BRIDGE_PATH, PRELOAD_API_PATH } from './routes.ts';

type Serve = (request: http.IncomingMessage, response: http.ServerResponse) => void;

interface Served {
  status: number;
  body?: string | Buffer;
  type?: string;
}

const NOT_FOUND: Served = { status: 404, body: 'Not Found' };
const SCRIPT_TYPE = 'text/javascript; charset=utf-8';

/** A renderer file (the page with the bridge placed before the app's script), or 404. */
async function rendererFile(rendererDir: string, pathname: string): Promise<Served> {
  const filePath = resolveRequestPath(rendererDir, pathname);
  if (!filePath) return NOT_FOUND;
  try {
    const isPage = filePath === path.join(rendererDir, 'index.html');
    const body = isPage
      ? injectBridge(await readFile(filePath, 'utf8'), BRIDGE_PATH)
      : await readFile(filePath);
    return { status: 200, body, type: contentTypeFor(filePath) };
  } catch {
    return NOT_FOUND;
  }
}

function write(response: http.ServerResponse, served: Served, head: boolean): void {
  const headers = securityHeaders();
  const found =
    served.status === 200 ? { 'Content-Type': served.type ?? SCRIPT_TYPE, 'Cache-Control': 'no-store' } : {};
  response.writeHead(served.status, { ...headers, ...found });
  response.end(head ? undefined : served.body);
}

/** The request handler for `host()` (127.0.0.1:port, known once the server listens). */
export async function createStaticServe(rendererDir: string, host: () => string): Promise<Serve> {
  const scripts = await buildBridgeScript(PRELOAD_API_PATH);
  const answer = async (request: http.IncomingMessage): Promise<Served> => {
    // DNS rebinding: a foreign name pointed at 127.0.0.1 gets nothing
    if (request.headers.host !== host()) return { status: 421, body: 'Misdirected Request' };
    if (request.method !== 'GET' && request.method !== 'HEAD') return { status: 405 };
    const pathname = new URL(request.url ?? '/', 'http://browser-mode').pathname;
    if (pathname === BRIDGE_PATH) return { status: 200, body: scripts.bridge };
    if (pathname === PRELOAD_API_PATH) return { status: 200, body: scripts.preloadApi };
    return rendererFile(rendererDir, pathname);
  };
  return (request, response) => {
    answer(request).then(
      (served) => write(response, served, request.method === 'HEAD'),
      () => {
        if (!response.headersSent) response.writeHead(500, securityHeaders());
        response.end();
      },
    );
  };
}
