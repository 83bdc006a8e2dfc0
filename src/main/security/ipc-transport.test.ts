import { describe, expect, it, vi } from 'vitest';
import { CHANNELS, type HandlerContext } from '../../shared/ipc.ts';
import {
  FORBIDDEN_SENDER,
  registerIpcTransport,
  type InvokeEventLike,
  type IpcMainLike,
} from './ipc-transport.ts';

type Listener = (event: InvokeEventLike, arg: unknown) => Promise<unknown>;

function fakeIpcMain() {
  const listeners = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void listeners.set(channel, listener),
    removeHandler: (channel) => void listeners.delete(channel),
  };
  return { ipcMain, listeners };
}

function eventFrom(url: string, { mainFrame = true, destroyed = false } = {}) {
  const sent: Array<[string, unknown]> = [];
  const event: InvokeEventLike = {
    senderFrame: { url, parent: mainFrame ? null : {} },
    sender: { send: (channel, payload) => void sent.push([channel, payload]), isDestroyed: () => destroyed },
  };
  return { event, sent };
}

describe('the ipcMain transport', () => {
  it('registers exactly the channels of the contract and removes them again', () => {
    const { ipcMain, listeners } = fakeIpcMain();
    const unregister = registerIpcTransport(ipcMain, CHANNELS, vi.fn());
    expect([...listeners.keys()].sort()).toEqual([...CHANNELS].sort());
    unregister();
    expect(listeners.size).toBe(0);
  });

  it('hands a call from the app window to dispatch and returns its result', async () => {
    const { ipcMain, listeners } = fakeIpcMain();
    const dispatch = vi.fn(async () => ({ ok: true as const, value: { profiles: [] } }));
    registerIpcTransport(ipcMain, CHANNELS, dispatch);
    const { event } = eventFrom('app://fieldbook/index.html');
    const result = await listeners.get('profiles:list')?.(event, undefined);
    expect(result).toEqual({ ok: true, value: { profiles: [] } });
    expect(dispatch).toHaveBeenCalledWith('profiles:list', undefined, expect.anything());
  });

  it.each([
    ['another origin', eventFrom('https://evil.invalid/').event],
    ['an iframe of the app', eventFrom('app://fieldbook/index.html', { mainFrame: false }).event],
    [
      'a frame that is gone',
      { senderFrame: null, sender: { send: () => undefined, isDestroyed: () => false } },
    ],
  ])('refuses a call from %s without dispatching it', async (_why, event) => {
    const { ipcMain, listeners } = fakeIpcMain();
    const dispatch = vi.fn();
    registerIpcTransport(ipcMain, CHANNELS, dispatch);
    const result = await listeners.get('profiles:save')?.(event, {
      name: 'x',
      baseUrl: 'http://x',
      token: 't',
    });
    expect(result).toEqual({ ok: false, error: FORBIDDEN_SENDER });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it('sends events back to the window that asked, and drops them once it is closed', async () => {
    const { ipcMain, listeners } = fakeIpcMain();
    let ctx: HandlerContext | undefined;
    registerIpcTransport(ipcMain, CHANNELS, async (_channel, _arg, context) => {
      ctx = context;
      return { ok: true, value: null };
    });
    let destroyed = false;
    const sent: unknown[] = [];
    const event: InvokeEventLike = {
      senderFrame: { url: 'app://fieldbook/index.html', parent: null },
      sender: {
        send: (channel, payload) => void sent.push([channel, payload]),
        isDestroyed: () => destroyed,
      },
    };
    await listeners.get('sync:cancel')?.(event, { syncId: 's' });
    const progress = {
      syncId: 's',
      outcome: 'cancelled' as const,
      requests: 1,
      plannedRequests: 1,
      collections: {},
    };
    ctx?.emit('sync:finished', progress);
    destroyed = true;
    ctx?.emit('sync:finished', progress);
    expect(sent).toEqual([['sync:finished', progress]]);
  });
});
