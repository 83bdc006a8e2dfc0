import { describe, expect, it } from 'vitest';
import { CRASH_WINDOW_MS, decideRecovery, MAX_CRASHES } from './recovery.ts';

const NOW = 1_000_000;

describe('a crashed window', () => {
  it.each(['crashed', 'oom', 'killed', 'abnormal-exit', 'launch-failed'])(
    'offers a reload after the renderer is gone (%s), saying the cache and outbox are kept',
    (reason) => {
      const answer = decideRecovery({ kind: 'gone', reason }, [], NOW);
      expect(answer.action).toBe('ask');
      if (answer.action !== 'ask') return;
      expect(answer.buttons[answer.reloadButton]).toBe('Reload');
      expect(answer.quitButton).not.toBeNull();
      expect(answer.detail).toMatch(/offline copy.*Outbox are kept/);
    },
  );

  it('says what happened in words, and something sensible for a reason it does not know', () => {
    expect(decideRecovery({ kind: 'gone', reason: 'oom' }, [], NOW)).toMatchObject({
      message: expect.stringContaining('out of memory'),
    });
    expect(decideRecovery({ kind: 'gone', reason: 'new-reason' }, [], NOW)).toMatchObject({
      action: 'ask',
      message: expect.stringContaining('stopped unexpectedly'),
    });
  });

  it('does nothing after a clean exit (the window was closed on purpose)', () => {
    expect(decideRecovery({ kind: 'gone', reason: 'clean-exit' }, [], NOW)).toEqual({ action: 'none' });
  });

  it(`stops offering reloads after ${MAX_CRASHES} crashes within a minute`, () => {
    const recent = [NOW - 20_000, NOW - 5_000];
    expect(decideRecovery({ kind: 'gone', reason: 'crashed' }, recent, NOW)).toMatchObject({
      action: 'give-up',
      detail: expect.stringContaining('Quit Fieldbook'),
    });
  });

  it('forgets crashes older than a minute', () => {
    const old = [NOW - CRASH_WINDOW_MS - 1, NOW - CRASH_WINDOW_MS - 2];
    expect(decideRecovery({ kind: 'gone', reason: 'crashed' }, old, NOW).action).toBe('ask');
  });
});

describe('a frozen window', () => {
  it('offers to wait or reload while it does not respond', () => {
    const answer = decideRecovery({ kind: 'unresponsive' }, [], NOW);
    expect(answer).toMatchObject({
      action: 'ask',
      buttons: ['Wait', 'Reload'],
      reloadButton: 1,
      quitButton: null,
    });
  });

  it('withdraws the question when it responds again', () => {
    expect(decideRecovery({ kind: 'responsive' }, [], NOW)).toEqual({ action: 'dismiss' });
  });
});

describe('attachRecovery on a window', () => {
  type Gone = (event: unknown, details: { reason: string; exitCode?: number }) => void;
  function fakeWindow() {
    const listeners = new Map<string, () => void>();
    const gone: Gone[] = [];
    const window = {
      reloads: 0,
      /** what was done to the web contents, in order */
      calls: [] as string[],
      on: (event: string, listener: () => void) => listeners.set(event, listener),
      isDestroyed: () => false,
      webContents: {
        on: (_event: 'render-process-gone', listener: Gone) => gone.push(listener),
        reload: () => {
          window.reloads += 1;
          window.calls.push('reload');
        },
        // as Electron does: the renderer is killed and 'render-process-gone' follows (here at once, the hardest case)
        forcefullyCrashRenderer: () => {
          window.calls.push('forcefullyCrashRenderer');
          gone.forEach((l) => l({}, { reason: 'killed' }));
        },
      },
    };
    const fire = (event: string, details?: { reason: string; exitCode?: number }) =>
      event === 'contents:render-process-gone'
        ? gone.forEach((l) => l({}, details!))
        : listeners.get(event)?.();
    return { window, fire };
  }

  function deps(responses: number[]) {
    const asked: { title: string; buttons: string[]; signal: AbortSignal }[] = [];
    let quits = 0;
    return {
      asked,
      quits: () => quits,
      deps: {
        ask: async (options: { title: string; buttons: string[]; signal: AbortSignal }) => {
          asked.push(options);
          return { response: responses.shift() ?? 0 };
        },
        quit: () => {
          quits += 1;
        },
        now: () => NOW,
      },
    };
  }

  it('reloads the window when the user picks Reload after a crash', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([0]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, d.deps);
    fire('contents:render-process-gone', { reason: 'crashed', exitCode: 139 });
    await new Promise((r) => setImmediate(r));
    expect(d.asked[0]?.buttons).toEqual(['Reload', 'Quit']);
    expect(window.reloads).toBe(1);
  });

  it('waits when the user picks Wait on a frozen window, and closes the question when it responds', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([0]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, {
      ...d.deps,
      ask: (options) => (d.asked.push(options), new Promise(() => undefined)),
    });
    fire('unresponsive');
    expect(d.asked[0]?.buttons).toEqual(['Wait', 'Reload']);
    fire('responsive');
    expect(d.asked[0]?.signal.aborted).toBe(true);
    expect(window.reloads).toBe(0);
  });

  it('offers only Quit after repeated crashes, and quits', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([0, 0, 0]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, d.deps);
    for (let i = 0; i < MAX_CRASHES; i++) {
      fire('contents:render-process-gone', { reason: 'crashed' });
      await new Promise((r) => setImmediate(r));
    }
    expect(d.asked.at(-1)?.buttons).toEqual(['Quit']);
    expect(d.quits()).toBe(1);
    expect(window.reloads).toBe(MAX_CRASHES - 1);
  });

  it('kills a frozen renderer before reloading it, so the reload gets a new process rather than the hung one', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([1]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, d.deps);
    fire('unresponsive');
    await new Promise((r) => setImmediate(r));
    expect(window.calls).toEqual(['forcefullyCrashRenderer', 'reload']);
  });

  it('does not take the kill it asked for as a crash: no second question, and it does not count towards giving up', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([1, 0, 0]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, d.deps);
    fire('unresponsive');
    await new Promise((r) => setImmediate(r));
    expect(d.asked.map((a) => a.title)).toEqual(['Fieldbook is not responding']);
    // two real crashes afterwards: with the kill counted, the second would offer only Quit
    for (let i = 0; i < MAX_CRASHES - 1; i++) {
      fire('contents:render-process-gone', { reason: 'crashed' });
      await new Promise((r) => setImmediate(r));
    }
    expect(d.asked.slice(1).map((a) => a.buttons)).toEqual([
      ['Reload', 'Quit'],
      ['Reload', 'Quit'],
    ]);
  });

  it('still treats a later kill by the system as a crash', async () => {
    const { window, fire } = fakeWindow();
    const d = deps([1, 0]);
    const { attachRecovery } = await import('./recovery.ts');
    attachRecovery(window, d.deps);
    fire('unresponsive');
    await new Promise((r) => setImmediate(r));
    fire('contents:render-process-gone', { reason: 'killed' });
    await new Promise((r) => setImmediate(r));
    expect(d.asked.map((a) => a.buttons)).toEqual([
      ['Wait', 'Reload'],
      ['Reload', 'Quit'],
    ]);
  });
});
