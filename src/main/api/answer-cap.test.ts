/**
 * Answers of any size: a broken proxy or a damaged server may send far more
 * than any Data API page (a 300 MB answer once took main to 3.2 GB). An answer
 * over MAX_ANSWER_BYTES is refused while it is read, main's memory grows by
 * about the cap at most, and nothing of the answer is used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient, ApiError } from './client.ts';
import { MAX_ANSWER_BYTES } from './read-body.ts';
import { failure, fakeFetch } from '../testing/fake-fetch.ts';

const MB = 1024 * 1024;

function clientFor(baseUrl: string, fetch?: typeof globalThis.fetch): ApiClient {
  return new ApiClient({
    baseUrl,
    token: 'cap-token-0123456789',
    sleep: async () => undefined,
    maxRetries: 2,
    ...(fetch ? { fetch } : {}),
  });
}

/**
 * A JSON list page of exactly `size` bytes (the list padded with spaces), sent in 1 MB chunks; counts the chunks
 * pulled.
 */
function paddedPage(
  size: number,
  headers: Record<string, string> = {},
): { response: Response; pulled: () => number; cancelled: () => boolean } {
  const head = new TextEncoder().encode('{"users":[');
  const tail = new TextEncoder().encode(']}');
  const spaces = new Uint8Array(MB).fill(0x20);
  let sent = 0;
  let pulled = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled += 1;
      if (sent === 0) {
        controller.enqueue(head);
        sent = head.length;
        return;
      }
      const left = size - sent - tail.length;
      if (left <= 0) {
        controller.enqueue(tail);
        controller.close();
        return;
      }
      const chunk = left >= MB ? spaces : spaces.subarray(0, left);
      controller.enqueue(chunk);
      sent += chunk.length;
    },
    cancel() {
      cancelled = true;
    },
  });
  const response = new Response(stream, {
    status: 200,
    headers: { 'content-type': 'application/json', ...headers },
  });
  return { response, pulled: () => pulled, cancelled: () => cancelled };
}

describe('an answer over the cap', () => {
  it('is refused while it is read: reading stops just past the cap and the rest is never asked for', async () => {
    const page = paddedPage(300 * MB);
    const f = fakeFetch(() => page.response);
    const error = await failure(clientFor('http://127.0.0.1:9/v1', f.fetch).request('GET', '/users'));
    expect(error.appError.code).toBe('malformed-response');
    expect(error.appError.message).toContain(`larger than ${MAX_ANSWER_BYTES / MB} MB`);
    expect(error.appError.message).toContain('used nothing of it');
    expect(error.retryable).toBe(false);
    expect(f.requests).toHaveLength(1);
    expect(page.pulled()).toBeLessThanOrEqual(MAX_ANSWER_BYTES / MB + 3);
    expect(page.cancelled()).toBe(true);
  });

  it('is refused before a byte is read when its Content-Length says it is over the cap', async () => {
    const page = paddedPage(300 * MB, { 'content-length': String(300 * MB) });
    const f = fakeFetch(() => page.response);
    const error = await failure(clientFor('http://127.0.0.1:9/v1', f.fetch).request('GET', '/users'));
    expect(error.appError.code).toBe('malformed-response');
    expect(page.pulled()).toBeLessThanOrEqual(1); // a stream may pull once when it is made
  });

  it('reads a page of exactly the cap, and refuses one byte more', async () => {
    const fits = fakeFetch(() => paddedPage(MAX_ANSWER_BYTES).response);
    const answer = await clientFor('http://127.0.0.1:9/v1', fits.fetch).getPage('/users', 'users', 'user', {
      startrow: 1,
      limit: 10,
    });
    expect(answer.items).toEqual([]);
    const over = fakeFetch(() => paddedPage(MAX_ANSWER_BYTES + 1).response);
    const error = await failure(
      clientFor('http://127.0.0.1:9/v1', over.fetch).getPage('/users', 'users', 'user', {
        startrow: 1,
        limit: 10,
      }),
    );
    expect(error.appError.code).toBe('malformed-response');
  });

  it('after a write, says the write may have been applied (it is verified before being sent again)', async () => {
    const f = fakeFetch(() => paddedPage(MAX_ANSWER_BYTES + MB).response);
    const error = await failure(
      clientFor('http://127.0.0.1:9/v1', f.fetch).request('PUT', '/users/1', { body: {} }),
    );
    expect(error.appError.code).toBe('malformed-response');
    expect(error.maybeSent).toBe(true);
  });
});

// A server in another process, so that only the reading side's memory is in this one.
const SERVER = `
const http = require('node:http');
const chunk = Buffer.alloc(1 << 20, 0x20);
const total = Number(process.argv[1]);
http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  if (req.method === 'HEAD') return res.end();
  res.write('{"users":[');
  let sent = 0;
  const more = () => {
    while (sent < total) {
      sent += chunk.length;
      if (!res.write(chunk)) return res.once('drain', more);
    }
    res.end(']}');
  };
  res.on('close', () => process.stdout.write('closed after ' + sent + '\\n'));
  more();
}).listen(0, '127.0.0.1', function () { process.stdout.write('port ' + this.address().port + '\\n'); });
`;

let server: ChildProcess | undefined;
afterAll(() => {
  server?.kill();
});

async function startStreamingServer(bytes: number): Promise<{ url: string; lines: string[] }> {
  server = spawn(process.execPath, ['-e', SERVER, String(bytes)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines: string[] = [];
  server.stdout!.setEncoding('utf8').on('data', (text: string) => lines.push(...text.trim().split('\n')));
  while (!lines.some((l) => l.startsWith('port '))) await once(server.stdout!, 'data');
  const port = lines.find((l) => l.startsWith('port '))!.slice(5);
  return { url: `http://127.0.0.1:${port}`, lines };
}

describe('a 300 MB answer from a server on this machine', () => {
  it('grows this process by about the cap at most, and the connection is dropped long before the end', async () => {
    const { url, lines } = await startStreamingServer(300 * MB);
    // Node's fetch is loaded on first use: not the answer's memory
    await (await fetch(url, { method: 'HEAD' })).body?.cancel();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 2);
    const outcome = await clientFor(`${url}/v1`)
      .request('GET', '/users')
      .then(
        () => 'read whole',
        (error: unknown) => (error instanceof ApiError ? error.appError.code : String(error)),
      )
      .finally(() => clearInterval(sampler));
    peak = Math.max(peak, process.memoryUsage().rss);
    const grownMb = (peak - before) / MB;
    console.log(
      `answer cap: RSS grew ${grownMb.toFixed(1)} MB for a 300 MB answer (cap ${MAX_ANSWER_BYTES / MB} MB): ${outcome}`,
    );
    expect(outcome).toBe('malformed-response');
    // the cap's worth of the answer held, plus what Node's fetch leaves for the garbage collector while
    // reading it (about 50 MB measured reading 32 MB and keeping nothing): bounded, whatever the answer's size
    expect(grownMb).toBeLessThan(3 * (MAX_ANSWER_BYTES / MB));
    while (!lines.some((l) => l.startsWith('closed after'))) await once(server!.stdout!, 'data');
    const sent = Number(lines.find((l) => l.startsWith('closed after'))!.slice('closed after '.length));
    expect(sent).toBeLessThan(100 * MB);
  });
});
