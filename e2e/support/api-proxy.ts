/**
 * A tiny loopback proxy in front of the reference server: counts and logs every
 * request that reaches the API, and lets a test answer some of them itself
 * (a revoked token, a foreign record, a malformed page) while the rest pass through.
 */
import http from 'node:http';

export interface ProxiedRequest {
  method: string;
  /** path and query, e.g. "/v1/sites/1/users?startrow=1&limit=100" */
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface ProxyAnswer {
  status: number;
  body: string;
  contentType?: string;
  /** more response headers (e.g. Location for a redirect) */
  headers?: Record<string, string>;
}

/**
 * Returns an answer to send instead of the server's, 'hang' to never answer, or undefined to pass the request through.
 */
export type ProxyRule = (request: ProxiedRequest) => ProxyAnswer | 'hang' | undefined;

export interface ApiProxy {
  baseUrl: string;
  /** every request that arrived, as "METHOD /path?query" */
  log: string[];
  setRule(rule: ProxyRule | null): void;
  close(): Promise<void>;
}

/** A status body as the Data API sends it. */
export function statusAnswer(httpcode: number, statuscode: number, message: string): ProxyAnswer {
  return {
    status: httpcode,
    body: JSON.stringify({
      httpcode,
      statuscode,
      status: message,
      developermessage: message,
      moreinfo: `https://developer.example.invalid/v1/responsecodes/${statuscode}`,
    }),
  };
}

export async function startApiProxy(targetBaseUrl: string): Promise<ApiProxy> {
  const target = new URL(targetBaseUrl);
  const basePath = target.pathname.replace(/\/$/, '');
  const log: string[] = [];
  let rule: ProxyRule | null = null;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const proxied = { method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers };
      log.push(`${proxied.method} ${proxied.url}`);
      const answer = rule?.(proxied);
      if (answer === 'hang') return; // the request is taken and never answered (closed with the proxy)
      if (answer) {
        response
          .writeHead(answer.status, {
            'Content-Type': answer.contentType ?? 'application/json',
            ...answer.headers,
          })
          .end(answer.body);
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers.set(name, value);
      }
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      fetch(new URL(proxied.url, target.origin), { method: proxied.method, headers, body })
        .then(async (upstream) => {
          const text = await upstream.text();
          const extra: Record<string, string> = {};
          const retryAfter = upstream.headers.get('retry-after');
          if (retryAfter) extra['Retry-After'] = retryAfter;
          response
            .writeHead(upstream.status, {
              'Content-Type': upstream.headers.get('content-type') ?? 'application/json',
              ...extra,
            })
            .end(text);
        })
        .catch(() => response.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The proxy has no TCP address.');
  return {
    baseUrl: `http://127.0.0.1:${address.port}${basePath}`,
    log,
    setRule(next) {
      rule = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
