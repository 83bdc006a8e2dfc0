import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDemo } from './demo.ts';

let dir: string | null = null;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the demo', () => {
  it('starts the reference server on a loopback port with a full-access token, once', async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldbook-demo-'));
    const demo = createDemo(join(dir, 'demo'));
    try {
      const first = await demo.start();
      const again = await demo.start();
      expect(again).toEqual(first);
      expect(first.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      const res = await fetch(`${first.baseUrl}/sites`, { headers: { AccessToken: first.token } });
      expect(res.status).toBe(200);
      expect(await readdir(join(dir, 'demo'))).toContain('demo.sqlite');
    } finally {
      await demo.stop();
    }
  });
});
