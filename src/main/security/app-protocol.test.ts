import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppRequestHandler } from './app-protocol.ts';
import { CONTENT_SECURITY_POLICY } from './csp.ts';

let base: string;
let handle: (request: Request) => Promise<Response>;

beforeAll(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'fieldbook-protocol-'));
  const root = path.join(base, 'renderer');
  await mkdir(path.join(root, 'assets'), { recursive: true });
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>Fieldbook</title>');
  await writeFile(path.join(root, 'assets', 'index.js'), 'console.log(1)');
  await writeFile(path.join(base, 'secret.txt'), 'do not serve');
  handle = createAppRequestHandler({ root, readFile: (file) => readFile(file) });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the app:// protocol', () => {
  it('serves the app with the CSP as a response header', async () => {
    const response = await handle(new Request('app://fieldbook/'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('Fieldbook');
  });

  it('serves scripts as JavaScript, never sniffed', async () => {
    const response = await handle(new Request('app://fieldbook/assets/index.js'));
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('does not serve files outside the renderer folder', async () => {
    const response = await handle(new Request('app://fieldbook/%2e%2e/secret.txt'));
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('do not serve');
  });

  it('answers 404 for a missing file', async () => {
    expect((await handle(new Request('app://fieldbook/nope.js'))).status).toBe(404);
  });

  it('refuses writes', async () => {
    expect(
      (await handle(new Request('app://fieldbook/index.html', { method: 'POST', body: 'x' }))).status,
    ).toBe(405);
  });

  it('has a CSP that allows no inline script, no eval and no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  });
});
