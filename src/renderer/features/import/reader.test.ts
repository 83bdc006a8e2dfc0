import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetProfileStores } from '../../app/profile-stores.ts';
import { readInWorker, warmReader } from './reader.ts';

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

describe('the reader started ahead while the Import view is open', () => {
  const file = () => new File(['username\nbo'], 'hr.csv');

  it('reads the next file dropped: no worker starts at the drop', () => {
    vi.stubGlobal('Worker', SilentWorker);
    const close = warmReader();
    const reading = readInWorker(file(), () => undefined);
    expect(SilentWorker.started).toHaveLength(1);
    expect(SilentWorker.started[0]!.terminated).toBe(false);
    reading.cancel();
    close();
  });

  it('is started again for the file after, once a reading is done', () => {
    vi.stubGlobal('Worker', SilentWorker);
    const close = warmReader();
    readInWorker(file(), () => undefined).cancel();
    expect(SilentWorker.started.map((w) => w.terminated)).toEqual([true, false]);
    readInWorker(file(), () => undefined).cancel();
    expect(SilentWorker.started.map((w) => w.terminated)).toEqual([true, true, false]);
    close();
  });

  it('is not used when its module failed to load: the file is read by a new worker', () => {
    vi.stubGlobal('Worker', SilentWorker);
    const close = warmReader();
    const [failed] = SilentWorker.started;
    (failed!.onerror as (e: { preventDefault(): void }) => void)({ preventDefault: () => undefined });
    readInWorker(file(), () => undefined);
    expect(SilentWorker.started).toHaveLength(2);
    expect(failed!.terminated).toBe(true);
    close();
  });

  it('ends when the view closes', () => {
    vi.stubGlobal('Worker', SilentWorker);
    const close = warmReader();
    close();
    expect(SilentWorker.started.map((w) => w.terminated)).toEqual([true]);
  });
});
