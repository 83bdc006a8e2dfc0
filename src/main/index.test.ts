/**
 * The Electron shell (src/main/index.ts) started against a recording fake of
 * Electron: what it registers is checked by calling it, as Electron would,
 * rather than by reading its source. Electron's binary cannot be downloaded
 * here, so this is where the shell's wiring is proven.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../shared/ipc.ts';
import { CONTENT_SECURITY_POLICY } from './security/csp.ts';
import { REQUIRED_WEB_PREFERENCES } from './security/window-rules.ts';

type Listener = (...args: unknown[]) => unknown;

interface FakeContents {
  listeners: Map<string, Listener>;
  windowOpenHandler: Listener | null;
  reloads: number;
  /** reload and forcefullyCrashRenderer, in the order they were called */
  calls: string[];
  on(event: string, listener: Listener): FakeContents;
  setWindowOpenHandler(handler: Listener): void;
  reload(): void;
  forcefullyCrashRenderer(): void;
}

/** What the shell gave the handlers (createHandlers is wrapped to record it). */
interface RecordedDeps {
  fetch: typeof globalThis.fetch;
}

const rec = vi.hoisted(() => {
  const makeContents = (): FakeContents => {
    const contents: FakeContents = {
      listeners: new Map(),
      windowOpenHandler: null,
      reloads: 0,
      calls: [],
      on(event, listener) {
        contents.listeners.set(event, listener);
        return contents;
      },
      setWindowOpenHandler(handler) {
        contents.windowOpenHandler = handler;
      },
      reload() {
        contents.reloads += 1;
        contents.calls.push('reload');
      },
      // as Electron does: the renderer is killed, and 'render-process-gone' (reason 'killed') follows
      forcefullyCrashRenderer() {
        contents.calls.push('forcefullyCrashRenderer');
        contents.listeners.get('render-process-gone')?.({}, { reason: 'killed' });
      },
    };
    return contents;
  };
  return {
    makeContents,
    userData: '',
    appListeners: new Map<string, Listener>(),
    handled: new Map<string, Listener>(),
    windows: [] as {
      options: Record<string, unknown>;
      listeners: Map<string, Listener>;
      webContents: FakeContents;
      loaded: string[];
    }[],
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    permissionRequest: null as Listener | null,
    permissionCheck: null as Listener | null,
    dialogs: [] as { options: Record<string, unknown> }[],
    dialogResponse: 0,
    sandboxed: false,
    opened: [] as string[],
    /** the init of every net.fetch call, as the shell passed it to Electron */
    netFetches: [] as { url: string; init: RequestInit | undefined }[],
    handlerDeps: null as RecordedDeps | null,
    /** what the mocked DNS answers, per name */
    dns: new Map<string, string[]>(),
    keychain: new Map<string, string>(),
    /** the application menu's template and the About panel's options, as the shell set them */
    menu: null as unknown[] | null,
    about: null as Record<string, unknown> | null,
  };
});

// the shell's own fetch wrapper is reached through the handlers it builds
vi.mock('./handlers.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./handlers.ts')>();
  return {
    ...real,
    createHandlers: (deps: Parameters<typeof real.createHandlers>[0]) => {
      rec.handlerDeps = deps;
      return real.createHandlers(deps);
    },
  };
});

// the shell resolves a link's host before opening it: answered from rec.dns, never the network
vi.mock('node:dns/promises', () => {
  const lookup = async (host: string) => {
    const addresses = rec.dns.get(host);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, default: { lookup } };
});

// an in-memory keychain, so a profile with a token can be saved through the handlers
vi.mock('keytar', () => {
  const keytar = {
    getPassword: async (_service: string, account: string) => rec.keychain.get(account) ?? null,
    setPassword: async (_service: string, account: string, secret: string) =>
      void rec.keychain.set(account, secret),
    deletePassword: async (_service: string, account: string) => rec.keychain.delete(account),
  };
  return { ...keytar, default: keytar };
});

vi.mock('electron', () => {
  class BrowserWindow {
    static getAllWindows = () => rec.windows;
    readonly webContents = rec.makeContents();
    readonly listeners = new Map<string, Listener>();
    readonly loaded: string[] = [];
    readonly options: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      rec.windows.push(this);
    }
    on(event: string, listener: Listener) {
      this.listeners.set(event, listener);
      return this;
    }
    once(event: string, listener: Listener) {
      return this.on(event, listener);
    }
    loadURL(url: string) {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show() {}
    isDestroyed() {
      return false;
    }
    isMinimized() {
      return false;
    }
    restore() {}
    focus() {}
  }
  const app = {
    isPackaged: true,
    enableSandbox: () => {
      rec.sandboxed = true;
    },
    on: (event: string, listener: Listener) => rec.appListeners.set(event, listener),
    whenReady: () => Promise.resolve(),
    getPath: () => rec.userData,
    requestSingleInstanceLock: () => true,
    getVersion: () => '9.8.7',
    setAboutPanelOptions: (options: Record<string, unknown>) => {
      rec.about = options;
    },
    quit: () => undefined,
    exit: () => undefined,
  };
  return {
    app,
    BrowserWindow,
    dialog: {
      showMessageBox: (_window: unknown, options: Record<string, unknown>) => {
        rec.dialogs.push({ options });
        return Promise.resolve({ response: rec.dialogResponse });
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => template,
      setApplicationMenu: (menu: unknown[]) => {
        rec.menu = menu;
      },
    },
    ipcMain: {
      handle: (channel: string, listener: Listener) => rec.handled.set(channel, listener),
      removeHandler: (channel: string) => rec.handled.delete(channel),
    },
    net: {
      fetch: (url: string, init?: RequestInit) => {
        rec.netFetches.push({ url, init });
        return Promise.reject(new Error('net::ERR_CONNECTION_REFUSED (no network in this test)'));
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => rec.privileged.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        rec.protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: Listener) => {
          rec.permissionRequest = handler;
        },
        setPermissionCheckHandler: (handler: Listener) => {
          rec.permissionCheck = handler;
        },
      },
    },
    shell: {
      openExternal: (url: string) => {
        rec.opened.push(url);
        return Promise.resolve();
      },
    },
  };
});

beforeAll(async () => {
  rec.userData = await mkdtemp(join(tmpdir(), 'fieldbook-shell-'));
  await import('./index.ts');
  await vi.waitFor(() => expect(rec.windows.length).toBe(1));
});

afterAll(async () => {
  await rm(rec.userData, { recursive: true, force: true });
});

const trustedEvent = () => ({
  senderFrame: { url: 'app://fieldbook/index.html', parent: null },
  sender: { send: () => undefined, isDestroyed: () => false },
});

describe('the shell registers', () => {
  it('every channel of the contract, and nothing else', () => {
    expect([...rec.handled.keys()].sort()).toEqual([...CHANNELS].sort());
  });

  it('each channel through the validating transport: foreign senders refused, arguments checked', async () => {
    for (const channel of CHANNELS) {
      const listener = rec.handled.get(channel)!;
      const foreign = await listener(
        { senderFrame: { url: 'https://evil.invalid/', parent: null }, sender: trustedEvent().sender },
        {},
      );
      expect(foreign, channel).toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
      const subframe = await listener(
        { senderFrame: { url: 'app://fieldbook/index.html', parent: {} }, sender: trustedEvent().sender },
        {},
      );
      expect(subframe, channel).toMatchObject({ ok: false, error: { code: 'forbidden-sender' } });
    }
    const malformed = await rec.handled.get('users:detail')!(trustedEvent(), { userid: 'x' });
    expect(malformed).toMatchObject({ ok: false, error: { code: 'invalid-argument' } });
  });

  it('a sandboxed window with the secure webPreferences, loading app://fieldbook/', () => {
    const window = rec.windows[0]!;
    expect(rec.sandboxed).toBe(true);
    expect(window.options.webPreferences).toMatchObject(REQUIRED_WEB_PREFERENCES);
    expect(String((window.options.webPreferences as { preload: string }).preload)).toMatch(
      /preload[\\/]index\.cjs$/,
    );
    expect(window.loaded).toEqual(['app://fieldbook/index.html']);
  });

  it('navigation guards and a window-open handler on every web contents', () => {
    const contents = rec.makeContents();
    rec.appListeners.get('web-contents-created')!({}, contents);
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect']) {
      const away = { url: 'https://evil.invalid/', preventDefault: vi.fn() };
      contents.listeners.get(event)!(away, away.url);
      expect(away.preventDefault, event).toHaveBeenCalled();
      const inside = { url: 'app://fieldbook/index.html#/users', preventDefault: vi.fn() };
      contents.listeners.get(event)!(inside, inside.url);
      expect(inside.preventDefault, event).not.toHaveBeenCalled();
    }
    const webview = { preventDefault: vi.fn() };
    contents.listeners.get('will-attach-webview')!(webview);
    expect(webview.preventDefault).toHaveBeenCalled();
    expect(contents.windowOpenHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'https://127.0.0.1.nip.io/' })).toEqual({ action: 'deny' });
  });

  it('a menu with an About entry that shows the app’s version', () => {
    expect(JSON.stringify(rec.menu)).toContain('"role":"about","label":"About Fieldbook"');
    expect(rec.about).toMatchObject({ applicationName: 'Fieldbook', applicationVersion: '9.8.7' });
  });

  it('permission handlers that grant nothing', () => {
    const callback = vi.fn();
    rec.permissionRequest!({}, 'media', callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(rec.permissionCheck!({}, 'notifications')).toBe(false);
  });

  it('the app:// scheme as privileged, served with the CSP as a response header', async () => {
    expect(rec.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ]);
    const handler = rec.protocolHandlers.get('app')!;
    for (const url of [
      'app://fieldbook/index.html',
      'app://fieldbook/../../etc/passwd',
      'app://fieldbook/missing.js',
    ]) {
      const response = await handler(new Request(url));
      expect(response.headers.get('content-security-policy'), url).toBe(CONTENT_SECURITY_POLICY);
    }
    expect((await handler(new Request('app://fieldbook/%2e%2e/%2e%2e/package.json'))).status).not.toBe(200);
  });

  it('crash handling on the window: a crashed renderer is offered a reload', async () => {
    const window = rec.windows[0]!;
    expect(window.listeners.has('unresponsive')).toBe(true);
    rec.dialogResponse = 0;
    window.webContents.listeners.get('render-process-gone')!({}, { reason: 'crashed', exitCode: 139 });
    await vi.waitFor(() => expect(window.webContents.reloads).toBe(1));
    expect(rec.dialogs[0]?.options).toMatchObject({ buttons: ['Reload', 'Quit'] });
  });

  it('a frozen renderer is killed before the reload (a new process, not the hung one), and that kill asks nothing', async () => {
    const window = rec.windows[0]!;
    const contents = window.webContents;
    contents.calls.length = 0;
    const dialogsBefore = rec.dialogs.length;
    rec.dialogResponse = 1; // Reload
    window.listeners.get('unresponsive')!();
    await vi.waitFor(() => expect(contents.calls).toEqual(['forcefullyCrashRenderer', 'reload']));
    await new Promise((resolve) => setImmediate(resolve));
    expect(rec.dialogs.slice(dialogsBefore).map((d) => d.options['title'])).toEqual([
      'Fieldbook is not responding',
    ]);
  });
});

describe('the shell’s network and links', () => {
  it('hands the API client a fetch that never follows a redirect, whatever its caller asks', async () => {
    const fetch = rec.handlerDeps!.fetch;
    rec.netFetches.length = 0;
    await fetch('https://api.example.com/v1/sites', { method: 'GET', redirect: 'follow' }).catch(
      () => undefined,
    );
    await fetch(new URL('https://api.example.com/v1/users'), { redirect: 'error' }).catch(() => undefined);
    expect(rec.netFetches.map((f) => [f.url, f.init?.redirect])).toEqual([
      ['https://api.example.com/v1/sites', 'manual'],
      ['https://api.example.com/v1/users', 'manual'],
    ]);
  });

  it('sends connection:probe through Electron’s net.fetch in manual redirect mode', async () => {
    rec.netFetches.length = 0;
    const saved = await rec.handled.get('profiles:save')!(trustedEvent(), {
      name: 'North',
      baseUrl: 'https://api.example.com/v1',
      token: 'shell-test-token-0123456789',
    });
    expect(saved).toMatchObject({ ok: true });
    const probe = await rec.handled.get('connection:probe')!(trustedEvent(), undefined);
    expect(probe).toMatchObject({ ok: true, value: { online: false, error: { code: 'network' } } });
    expect(rec.netFetches.length).toBeGreaterThan(0);
    expect(rec.netFetches.map((f) => f.init?.redirect)).toEqual(rec.netFetches.map(() => 'manual'));
    expect(rec.netFetches[0]!.url).toMatch(/^https:\/\/api\.example\.com\/v1\/sites\?/);
  });

  it('opens a refused window-open link in the system browser only when its host resolves to public addresses', async () => {
    rec.dns.set('intranet.example.com', ['127.0.0.1']);
    rec.dns.set('mixed.example.com', ['93.184.216.34', '10.0.0.7']);
    rec.dns.set('docs.example.org', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    rec.opened.length = 0;
    const contents = rec.makeContents();
    rec.appListeners.get('web-contents-created')!({}, contents);
    for (const url of [
      'https://intranet.example.com/admin',
      'https://mixed.example.com/',
      'https://unresolvable.example.net/',
      'https://docs.example.org/help',
    ]) {
      expect(contents.windowOpenHandler!({ url }), url).toEqual({ action: 'deny' });
    }
    await vi.waitFor(() => expect(rec.opened).toContain('https://docs.example.org/help'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(rec.opened).toEqual(['https://docs.example.org/help']);
  });
});
