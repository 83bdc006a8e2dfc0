import { describe, expect, it } from 'vitest';
import { CHANNELS, requestSchemas } from '../../shared/ipc.ts';
import { isPublicDestination, isSafeExternalUrl } from './external-links.ts';

describe('links that may open in the system browser', () => {
  it.each([
    'https://docs.example.com/v1/responsecodes/800',
    'http://example.invalid/',
    'http://example.invalid/?next=app://fieldbook',
  ])('opens the web link %s', (url) => {
    expect(isSafeExternalUrl(url)).toBe(true);
  });

  it.each([
    ['javascript:', 'javascript:alert(1)'],
    ['javascript: in mixed case', 'JaVaScRiPt:alert(1)'],
    ['data:', 'data:text/html,<script>alert(1)</script>'],
    ['file:', 'file:///etc/passwd'],
    ['the app itself', 'app://fieldbook/index.html'],
    ['a custom scheme', 'ms-settings:privacy'],
    ['userinfo that hides the real host', 'https://docs.example.com@evil.invalid/'],
    ['user and password', 'https://user:pw@example.com/'],
    ['a leading space', ' https://example.com/'],
    ['a tab inside the scheme', 'ht\ttps://example.com/'],
    ['a right-to-left override', 'https://example.com/\u202egnp.exe'],
    ['a loopback address', 'http://127.0.0.1:4010/__admin/reset'],
    ['localhost', 'http://localhost:4010/'],
    ['a loopback address in decimal', 'http://2130706433/'],
    ['IPv6 loopback', 'http://[::1]/'],
    ['a private network address', 'http://192.168.1.1/'],
    ['a relative path', '/users/1'],
    ['an empty string', ''],
    ['a very long URL', `https://example.com/${'a'.repeat(3000)}`],
  ])('refuses %s', (_why, url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('refuses values that are not strings', () => {
    expect(isSafeExternalUrl(undefined)).toBe(false);
    expect(isSafeExternalUrl({ href: 'https://example.com/' })).toBe(false);
  });

  it('limits hosts to an allow-list when one is given, subdomains included', () => {
    const allowed = ['example.com'];
    expect(isSafeExternalUrl('https://example.com/a', allowed)).toBe(true);
    expect(isSafeExternalUrl('https://help.example.com/a', allowed)).toBe(true);
    expect(isSafeExternalUrl('https://example.com.evil.invalid/', allowed)).toBe(false);
    expect(isSafeExternalUrl('https://notexample.com/', allowed)).toBe(false);
  });
});

describe('names that lead back to this machine', () => {
  it.each([
    'https://127.0.0.1.nip.io/',
    'https://app.10.0.0.1.sslip.io/x',
    'http://192-168-1-1.sslip.io/',
    'https://127-0-0-1.nip.io:8443/admin',
  ])('refuses %s, whose name spells a local address', (url) => {
    expect(isSafeExternalUrl(url)).toBe(false);
  });

  it('refuses a name that resolves to a loopback or private address', async () => {
    const lookup = async (host: string) =>
      host === 'rebind.example.com'
        ? [{ address: '127.0.0.1', family: 4 }]
        : [{ address: '93.184.215.14', family: 4 }];
    expect(await isPublicDestination('https://rebind.example.com/', lookup)).toBe(false);
    expect(await isPublicDestination('https://docs.example.com/', lookup)).toBe(true);
  });

  it('refuses a name when any of its addresses is local, or when it does not resolve', async () => {
    const mixed = async () => [
      { address: '93.184.215.14', family: 4 },
      { address: '::1', family: 6 },
    ];
    expect(await isPublicDestination('https://mixed.example.com/', mixed)).toBe(false);
    const failing = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await isPublicDestination('https://gone.example.com/', failing)).toBe(false);
  });
});

describe('the IPC contract', () => {
  it('offers the renderer no way to ask main to open a URL (the renderer never needed one)', () => {
    expect(CHANNELS as readonly string[]).not.toContain('app:openExternal');
    expect(Object.keys(requestSchemas)).not.toContain('app:openExternal');
  });
});
