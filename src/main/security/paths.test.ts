import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAppPath, resolveRequestPath } from './paths.ts';

const root = path.resolve('/srv/fieldbook/out/renderer');

describe('serving the built renderer', () => {
  it('serves index.html for the root', () => {
    expect(resolveAppPath(root, 'app://fieldbook/')).toBe(path.join(root, 'index.html'));
  });

  it('serves files inside the renderer folder, ignoring query and hash', () => {
    expect(resolveAppPath(root, 'app://fieldbook/assets/index-abc.js?v=1#x')).toBe(
      path.join(root, 'assets/index-abc.js'),
    );
  });

  it('decodes percent-encoded names that stay inside', () => {
    expect(resolveAppPath(root, 'app://fieldbook/assets/my%20font.woff2')).toBe(
      path.join(root, 'assets/my font.woff2'),
    );
  });

  it.each([
    ['a plain parent segment', '/../secrets.txt'],
    ['an encoded parent segment', '/%2e%2e/%2e%2e/etc/passwd'],
    ['an encoded slash', '/assets/..%2f..%2f..%2fetc%2fpasswd'],
    ['a double-encoded parent that decodes once only', '/%252e%252e/x'],
    ['a backslash', '/assets\\..\\..\\x'],
    ['an encoded backslash', '/assets/..%5c..%5cx'],
    ['a NUL byte', '/index.html%00.png'],
    ['malformed percent-encoding', '/%E0%A4%A'],
    ['an absolute path smuggled after an encoded slash', '/%2fetc%2fpasswd'],
  ])('refuses %s', (_why, urlPath) => {
    const resolved = resolveRequestPath(root, urlPath);
    if (resolved !== null) expect(resolved.startsWith(root + path.sep)).toBe(true);
    else expect(resolved).toBeNull();
  });

  it('refuses traversal outright rather than clamping it', () => {
    expect(resolveRequestPath(root, '/../secrets.txt')).toBeNull();
    expect(resolveRequestPath(root, '/%2e%2e/%2e%2e/etc/passwd')).toBeNull();
    expect(resolveRequestPath(root, '/assets/..%2f..%2f..%2fetc%2fpasswd')).toBeNull();
    expect(resolveRequestPath(root, '/assets\\..\\..\\x')).toBeNull();
    expect(resolveRequestPath(root, '/index.html%00.png')).toBeNull();
  });

  it('refuses other origins and schemes', () => {
    expect(resolveAppPath(root, 'app://other/index.html')).toBeNull();
    expect(resolveAppPath(root, 'file:///srv/fieldbook/out/renderer/index.html')).toBeNull();
    expect(resolveAppPath(root, 'app://user@fieldbook/index.html')).toBeNull();
    expect(resolveAppPath(root, 'not a url')).toBeNull();
  });
});
