import { describe, expect, it, vi } from 'vitest';
import {
  createWindowOpenHandler,
  denyPermissionCheck,
  denyPermissionRequest,
  guardNavigation,
  refuseWebview,
} from './window-rules.ts';

function preventable() {
  return { preventDefault: vi.fn() };
}

// the window's webPreferences and the shell's wiring are checked by starting the shell: src/main/index.test.ts

describe('navigation', () => {
  it('stays inside the app', () => {
    const event = preventable();
    expect(guardNavigation(event, 'app://fieldbook/index.html#/users')).toBe(true);
    expect(event.preventDefault).not.toHaveBeenCalled();
  });

  it.each([
    'https://evil.invalid/',
    'http://example.invalid/?next=app://fieldbook',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://fieldbook.evil/',
  ])('refuses to leave for %s', (url) => {
    const event = preventable();
    expect(guardNavigation(event, url)).toBe(false);
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });
});

describe('new windows', () => {
  it('never opens a window, and sends a web link to the system browser', () => {
    const openExternal = vi.fn();
    const handler = createWindowOpenHandler(openExternal);
    expect(handler({ url: 'https://docs.example.com/help' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://docs.example.com/help');
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'app://fieldbook/index.html',
    'https://x@evil.invalid/',
    'http://127.0.0.1:4010/__admin/reset',
    'about:blank',
  ])('drops %s without opening anything', (url) => {
    const openExternal = vi.fn();
    expect(createWindowOpenHandler(openExternal)({ url })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
  });
});

describe('webviews and permissions', () => {
  it('refuses to attach a webview', () => {
    const event = preventable();
    refuseWebview(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
  });

  it.each(['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal'])(
    'denies the %s permission',
    (permission) => {
      const callback = vi.fn();
      denyPermissionRequest({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(denyPermissionCheck()).toBe(false);
    },
  );
});
