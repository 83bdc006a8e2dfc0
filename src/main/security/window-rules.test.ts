import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  createWindowOpenHandler,
  denyPermissionCheck,
  denyPermissionRequest,
  guardNavigation,
  REQUIRED_WEB_PREFERENCES,
  refuseWebview,
} from './window-rules.ts';

function preventable() {
  return { preventDefault: vi.fn() };
}

describe('the window the app opens', () => {
  const shellSource = readFileSync(fileURLToPath(new URL('../index.ts', import.meta.url)), 'utf8');
  const windowOptions = /new BrowserWindow\(\{([\s\S]*?)\n {2}\}\);/.exec(shellSource)?.[1] ?? '';
  const webPreferences = /webPreferences: \{([\s\S]*?)\n {4}\}/.exec(windowOptions)?.[1] ?? '';

  it('writes its preferences literally where the window is made', () => {
    expect(webPreferences).toContain('preload: preloadPath');
  });

  it.each(Object.entries(REQUIRED_WEB_PREFERENCES))('says %s: %s out loud', (key, value) => {
    const said = new RegExp(`^\\s*${key}: ${typeof value === 'string' ? `'${value}'` : String(value)},`, 'm');
    expect(webPreferences).toMatch(said);
  });

  it('turns on nothing that loosens the page', () => {
    expect(webPreferences).not.toMatch(/enableBlinkFeatures|enableRemoteModule|allowRunningInsecureContent: true/);
  });
});

describe('navigation', () => {
  it('stays inside the app', () => {
    const event = preventable();
    expect(guardNavigation(event, 'app://fieldbook/index.html#/users')).toBe(true);
    expect(event.preventDefault).not.toHaveBeenCalled();
  });

  it.each(['https://evil.invalid/', 'http://example.invalid/?next=app://fieldbook', 'file:///etc/passwd', 'javascript:alert(1)', 'app://fieldbook.evil/'])(
    'refuses to leave for %s',
    (url) => {
      const event = preventable();
      expect(guardNavigation(event, url)).toBe(false);
      expect(event.preventDefault).toHaveBeenCalledOnce();
    },
  );
});

describe('new windows', () => {
  it('never opens a window, and sends a web link to the system browser', () => {
    const openExternal = vi.fn();
    const handler = createWindowOpenHandler(openExternal);
    expect(handler({ url: 'https://docs.example.com/help' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://docs.example.com/help');
  });

  it.each(['javascript:alert(1)', 'file:///etc/passwd', 'app://fieldbook/index.html', 'https://x@evil.invalid/', 'http://127.0.0.1:4010/__admin/reset', 'about:blank'])(
    'drops %s without opening anything',
    (url) => {
      const openExternal = vi.fn();
      expect(createWindowOpenHandler(openExternal)({ url })).toEqual({ action: 'deny' });
      expect(openExternal).not.toHaveBeenCalled();
    },
  );
});

describe('webviews and permissions', () => {
  it('refuses to attach a webview', () => {
    const event = preventable();
    refuseWebview(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])('denies the %s permission', (permission) => {
    const callback = vi.fn();
    denyPermissionRequest({}, permission, callback);
    expect(callback).toHaveBeenCalledWith(false);
    expect(denyPermissionCheck()).toBe(false);
  });
});
