import { describe, expect, it } from 'vitest';
import { AckWindow } from './flow.ts';

/** Sends until one send has to wait; returns how many went through. */
async function fill(window: AckWindow, keysOnly: boolean, from = 0): Promise<number> {
  const signal = new AbortController().signal;
  let sent = 0;
  for (let id = from; ; id++) {
    const waiting = window.send(id, signal, keysOnly).then(() => true);
    const went = await Promise.race([waiting, new Promise<boolean>((r) => setTimeout(() => r(false), 5))]);
    if (!went) return sent;
    sent++;
  }
}

describe('the acknowledgement window', () => {
  it('holds at most its size in pages of records', async () => {
    const window = new AckWindow(4);
    expect(await fill(window, false)).toBe(4);
    expect(window.full).toBe(true);
  });

  it('lets eight messages of keys only wait in the room of one page of records', async () => {
    const window = new AckWindow(4);
    expect(await fill(window, true)).toBe(32);
    expect(window.unacked).toBe(4);
    expect(window.peak).toBe(4);
  });

  it('makes room again as messages are acknowledged, whatever their weight', async () => {
    const window = new AckWindow(1);
    expect(await fill(window, true)).toBe(8);
    // the ninth, which waited, goes as soon as one is acknowledged
    for (let id = 0; id < 8; id++) window.ack(id);
    await new Promise((r) => setTimeout(r, 0));
    expect(window.unacked).toBe(1 / 8);
    window.ack(8);
    expect(window.unacked).toBe(0);
    expect(await fill(window, false, 100)).toBe(1);
  });
});
