import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, EVENTS } from '../shared/ipc.ts';
import { createFieldbookApi, type IpcRendererLike } from './api.ts';

type Relay = (event: unknown, payload: unknown) => void;

function fakeIpcRenderer() {
  const listeners = new Map<string, Set<Relay>>();
  const ipc: IpcRendererLike = {
    invoke: vi.fn(async (channel: string, arg?: unknown) => ({ ok: true, value: { channel, arg } })),
    on: (channel, listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
  };
  const emit = (channel: string, payload: unknown) => {
    for (const relay of listeners.get(channel) ?? []) relay({ sender: 'the ipc event' }, payload);
  };
  return { ipc, emit, listeners };
}

describe('window.fieldbook', () => {
  it('has one function per channel of the contract and nothing else', () => {
    const api = createFieldbookApi(fakeIpcRenderer().ipc);
    const { on, ...requests } = api;
    expect(Object.keys(requests).sort()).toEqual([...CHANNELS].sort());
    expect(Object.keys(on).sort()).toEqual([...EVENTS].sort());
    expect(Object.values(requests).every((value) => typeof value === 'function')).toBe(true);
  });

  it('exposes no generic invoke, send or ipcRenderer', () => {
    const api: Record<string, unknown> = createFieldbookApi(fakeIpcRenderer().ipc);
    for (const name of ['invoke', 'send', 'sendSync', 'ipcRenderer', 'postMessage'])
      expect(api[name]).toBeUndefined();
  });

  it('sends each request on its own channel with its argument', async () => {
    const { ipc } = fakeIpcRenderer();
    const api = createFieldbookApi(ipc);
    await api['sync:cancel']({ syncId: 's1' });
    await api['profiles:list']();
    expect(ipc.invoke).toHaveBeenNthCalledWith(1, 'sync:cancel', { syncId: 's1' });
    expect(ipc.invoke).toHaveBeenNthCalledWith(2, 'profiles:list', undefined);
  });

  it('gives listeners the payload only, never the IPC event', () => {
    const { ipc, emit } = fakeIpcRenderer();
    const listener = vi.fn();
    createFieldbookApi(ipc).on['profiles:changed'](listener);
    const state = { profiles: [], activeId: null, keychain: { available: true } };
    emit('profiles:changed', state);
    expect(listener).toHaveBeenCalledExactlyOnceWith(state);
  });

  it('stops delivering events after unsubscribing', () => {
    const { ipc, emit, listeners } = fakeIpcRenderer();
    const listener = vi.fn();
    const unsubscribe = createFieldbookApi(ipc).on['sync:progress'](listener);
    unsubscribe();
    emit('sync:progress', {});
    expect(listener).not.toHaveBeenCalled();
    expect(listeners.get('sync:progress')?.size).toBe(0);
  });
});
