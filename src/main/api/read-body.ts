/**
 * Reading an answer's body with a cap. A broken proxy or a damaged server can
 * send hundreds of megabytes (a 300 MB answer once took main to 3.2 GB): the
 * body is read as a stream and reading stops, the connection dropped, as soon
 * as it passes MAX_ANSWER_BYTES; a Content-Length above it is refused before a
 * byte is read. Main then holds at most about one cap's worth of the answer.
 */
import { ApiError } from './errors.ts';

/**
 * The largest answer Fieldbook reads: far above any Data API page (a page of
 * 1,000 people is about 1 MB), far below what would strain the laptop.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** The answer was larger than the cap: nothing of it is used. A write behind it may have been applied. */
function answerTooLarge(method: string): ApiError {
  const cap = megabytes(MAX_ANSWER_BYTES);
  const message =
    `The server’s answer was larger than ${cap}, far more than the API ever sends, so Fieldbook stopped reading it and used nothing of it. ` +
    'A proxy or a damaged server may be in the way; try again later, or check the profile’s address.';
  return new ApiError(
    { code: 'malformed-response', message },
    { retryable: false, maybeSent: method !== 'GET' },
  );
}

/** The announced length, when the answer gives a plain one. */
function declaredLength(response: Response): number | null {
  const header = response.headers.get('content-length');
  return header !== null && /^\s*\d+\s*$/.test(header) ? Number(header) : null;
}

/**
 * The body's bytes, read chunk by chunk; `answerTooLarge` as soon as it passes
 * the cap (the rest is never read: the stream is cancelled, which drops the
 * connection). An answer over the cap is never held whole: main holds at most
 * the cap's worth of its chunks, dropped when it is refused.
 */
export async function readCappedBody(response: Response, method: string): Promise<Uint8Array> {
  const declared = declaredLength(response);
  if (declared !== null && declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel().catch(() => undefined);
    throw answerTooLarge(method);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_ANSWER_BYTES) {
      chunks.length = 0;
      await reader.cancel().catch(() => undefined);
      throw answerTooLarge(method);
    }
    chunks.push(value);
  }
  return joinChunks(chunks, total);
}

function joinChunks(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
