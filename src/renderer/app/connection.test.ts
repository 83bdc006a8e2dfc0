import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ConnectionStatus } from '../../shared/ipc.ts';
import { startConnectionMonitor } from './connection.ts';
import { fakeApi } from '../testing/fake-api.ts';

const online: ConnectionStatus = { online: true, checkedAt: '2026-03-01T00:00:00Z', profileId: 'p1' };

afterEach(() => vi.useRealTimers());

describe('the connection monitor', () => {
  it('probes at once and then periodically', async () => {
    vi.useFakeTimers();
    const fake = fakeApi();
    fake.respond('connection:probe', () => ({ ok: true, value: online }));
    const seen: boolean[] = [];
    const monitor = startConnectionMonitor(fake.api, (s) => seen.push(s.online), {
      intervalMs: 1000,
      target: null,
    });
    await vi.advanceTimersByTimeAsync(2500);
    expect(fake.calls.filter((c) => c.channel === 'connection:probe').length).toBe(3);
    expect(seen.every(Boolean)).toBe(true);
    monitor.stop();
  });

  it('probes again when the window goes offline or online', async () => {
    const fake = fakeApi();
    fake.respond('connection:probe', () => ({ ok: true, value: online }));
    const target = new EventTarget();
    const monitor = startConnectionMonitor(fake.api, () => {}, { intervalMs: 60_000, target });
    await monitor.probe();
    target.dispatchEvent(new Event('offline'));
    await vi.waitFor(() => expect(fake.calls.length).toBe(2));
    monitor.stop();
  });

  it('reports offline with the reason when the probe itself fails', async () => {
    const fake = fakeApi();
    fake.respond('connection:probe', () => ({
      ok: false,
      error: { code: 'no-profile', message: 'Add a profile first.' },
    }));
    const seen: ConnectionStatus[] = [];
    const monitor = startConnectionMonitor(fake.api, (s) => seen.push(s), { target: null });
    await monitor.probe();
    expect(seen[0]).toMatchObject({ online: false, error: { code: 'no-profile' } });
    monitor.stop();
  });

  it('follows the changes main reports', async () => {
    const fake = fakeApi();
    fake.respond('connection:probe', () => ({ ok: true, value: online }));
    const seen: boolean[] = [];
    const monitor = startConnectionMonitor(fake.api, (s) => seen.push(s.online), { target: null });
    await monitor.probe();
    fake.emit('connection:changed', { ...online, online: false });
    expect(seen.at(-1)).toBe(false);
    monitor.stop();
  });

  it('stops probing every interval and on network events while "Work offline" is on, and starts again when it is off', async () => {
    vi.useFakeTimers();
    const fake = fakeApi();
    fake.respond('connection:probe', () => ({ ok: true, value: online }));
    let workOffline = true;
    const target = new EventTarget();
    const monitor = startConnectionMonitor(fake.api, () => {}, {
      intervalMs: 1000,
      target,
      held: () => workOffline,
    });
    await vi.advanceTimersByTimeAsync(0);
    const probes = () => fake.calls.filter((c) => c.channel === 'connection:probe').length;
    const atStart = probes();
    await vi.advanceTimersByTimeAsync(5000);
    target.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(probes()).toBe(atStart);
    workOffline = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(probes()).toBe(atStart + 1);
    monitor.stop();
  });
});
