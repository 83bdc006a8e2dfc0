import { describe, expect, it } from 'vitest';
import { describeSenderFrame, isTrustedSender } from './sender.ts';

describe('who may call the handlers', () => {
  it('trusts the main frame of the app', () => {
    expect(isTrustedSender({ url: 'app://fieldbook/index.html', isMainFrame: true })).toBe(true);
  });

  it('refuses a subframe, even of the app origin', () => {
    expect(isTrustedSender({ url: 'app://fieldbook/index.html', isMainFrame: false })).toBe(false);
  });

  it.each([
    'https://evil.invalid/',
    'https://evil.invalid/?app://fieldbook/',
    'app://fieldbook.evil/',
    'file:///tmp/x.html',
    'about:blank',
    '',
  ])('refuses a main frame at %s', (url) => {
    expect(isTrustedSender({ url, isMainFrame: true })).toBe(false);
  });

  it('refuses a frame that is already gone', () => {
    expect(isTrustedSender(describeSenderFrame(null))).toBe(false);
  });

  it('reads the main frame from a frame without a parent', () => {
    expect(describeSenderFrame({ url: 'app://fieldbook/', parent: null })).toEqual({
      url: 'app://fieldbook/',
      isMainFrame: true,
    });
    expect(describeSenderFrame({ url: 'app://fieldbook/', parent: {} })).toEqual({
      url: 'app://fieldbook/',
      isMainFrame: false,
    });
  });
});

describe('development with the electron-vite dev server', () => {
  it('trusts the dev server origin only when it is given', () => {
    const sender = { url: 'http://localhost:5173/', isMainFrame: true };
    expect(isTrustedSender(sender)).toBe(false);
    expect(isTrustedSender(sender, 'http://localhost:5173')).toBe(true);
    expect(
      isTrustedSender({ url: 'http://localhost:5174/', isMainFrame: true }, 'http://localhost:5173'),
    ).toBe(false);
  });
});
