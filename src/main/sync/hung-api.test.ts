/**
 * An API that takes the request and never answers: the user gets a clear error
 * within about 45 seconds, and sees "retrying (2 of 4)" while Fieldbook waits.
 * Fake timers drive the clock; nothing here waits for real time.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayloads, SyncProgress } from '../../shared/ipc.ts';
import { ApiClient, ApiError } from '../api/client.ts';
import { SyncEngine } from './engine.ts';
import { BASE_URL } from '../testing/fake-api.ts';

/** A fetch that never answers; it ends only when its signal aborts. */
const hangingFetch = ((_input: unknown, init?: RequestInit) =>
  new Promise<Response>((_resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), {
      once: true,
    });
  })) as typeof globalThis.fetch;

afterEach(() => {
  vi.useRealTimers();
});

describe('a hung API', () => {
  it('fails with a clear timeout within 45 s with the default timeout and retries', async () => {
    vi.useFakeTimers();
    const client = new ApiClient({
      baseUrl: BASE_URL,
      token: 'tok-123456789',
      fetch: hangingFetch,
      random: () => 1,
    });
    let settled: ApiError | 'resolved' | null = null;
    client.request('GET', '/sites').then(
      () => (settled = 'resolved'),
      (err: unknown) => (settled = err instanceof ApiError ? err : null),
    );
    await vi.advanceTimersByTimeAsync(45_000);
    expect(settled).toBeInstanceOf(ApiError);
    const error = settled as unknown as ApiError;
    expect(error.appError.code).toBe('timeout');
    expect(error.appError.message).toMatch(/4 attempts/);
  });

  it('tells the renderer "retrying (2 of 4)" while it waits, then stops the sync with the timeout', async () => {
    const client = new ApiClient({
      baseUrl: BASE_URL,
      token: 'tok-123456789',
      fetch: hangingFetch,
      timeoutMs: 5,
      sleep: async () => undefined,
    });
    const progress: SyncProgress[] = [];
    const emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => {
      if (event === 'sync:progress') progress.push(payload as SyncProgress);
    };
    const engine = new SyncEngine({ syncId: 's1', client, emit, concurrency: 1 });
    const finished = await engine.run();
    const notices = progress.map((p) => p.notice).filter((n): n is string => typeof n === 'string');
    expect(notices.some((n) => /retrying \(2 of 4\)/.test(n))).toBe(true);
    expect(notices.some((n) => /retrying \(4 of 4\)/.test(n))).toBe(true);
    expect(finished.outcome).toBe('failed');
    expect(finished.error?.code).toBe('timeout');
  });
});
