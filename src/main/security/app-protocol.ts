/**
 * The `app://fieldbook/` protocol handler: serves files of the built renderer,
 * nothing else, with the CSP as a response header.
 */
import { contentTypeFor, securityHeaders } from './csp.ts';
import { resolveAppPath } from './paths.ts';

export interface AppProtocolOptions {
  /** absolute path of the built renderer (`out/renderer`) */
  root: string;
  readFile(filePath: string): Promise<Uint8Array>;
}

function refusal(status: number, statusText: string): Response {
  return new Response(statusText, {
    status,
    statusText,
    headers: { ...securityHeaders(), 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

export function createAppRequestHandler(options: AppProtocolOptions) {
  return async (request: Request): Promise<Response> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refusal(405, 'Method Not Allowed');
    const filePath = resolveAppPath(options.root, request.url);
    if (!filePath) return refusal(404, 'Not Found');
    let body: Uint8Array;
    try {
      body = await options.readFile(filePath);
    } catch {
      return refusal(404, 'Not Found');
    }
    const headers = { ...securityHeaders(), 'Content-Type': contentTypeFor(filePath) };
    return new Response(request.method === 'HEAD' ? null : new Blob([new Uint8Array(body)]), {
      status: 200,
      headers,
    });
  };
}
