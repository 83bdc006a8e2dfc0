import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetProfileStores } from '../../app/profile-stores.ts';
import { readInWorker } from './reader.ts';

/** A reading worker that never answers: the file is still being read. */
class SilentWorker {
  static started: SilentWorker[] = [];
  terminated = false;
  onmessage: unknown = null;
  onerror: unknown = null;
  constructor() {
    SilentWorker.started.push(this);
  }
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
  SilentWorker.started = [];
});

describe('a file being read for the import', () => {
  it("stops when the profile's session ends: its rows belong to the profile it was dropped in", async () => {
    vi.stubGlobal('Worker', SilentWorker);
    const reading = readInWorker(new File(['username\nbo'], 'hr.csv'), () => undefined);
    resetProfileStores();
    expect(SilentWorker.started.map((w) => w.terminated)).toEqual([true]);
    expect(await reading.done).toEqual({ ok: false, cancelled: true });
  });
});
