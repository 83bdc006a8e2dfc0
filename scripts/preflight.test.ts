import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { choosePort, harnessCacheNote, nodeVersionProblem, portIsFree } from './preflight.mjs';

describe('the Node version check', () => {
  it('names the version needed and the one running', () => {
    expect(nodeVersionProblem('v20.18.0', '>=22.13')).toMatch(
      /^Fieldbook needs Node 22\.13\.0 or newer .*this is Node 20\.18\.0\./,
    );
    expect(nodeVersionProblem('v22.12.9', '>=22.13')).not.toBeNull();
  });

  it('lets a recent enough Node through', () => {
    expect(nodeVersionProblem('v22.13.0', '>=22.13')).toBeNull();
    expect(nodeVersionProblem('v24.1.0', '>=22.13')).toBeNull();
  });
});

describe('the harness port', () => {
  const busy = (taken: number[]) => async (port: number) => !taken.includes(port);

  it('uses 5180 when it is free, with nothing to say', async () => {
    expect(await choosePort({}, busy([]))).toEqual({ port: 5180, message: null });
  });

  it('moves to the next free port when 5180 is busy, and says the cache is separate', async () => {
    const chosen = await choosePort({}, busy([5180, 5181]));
    expect(chosen.port).toBe(5182);
    expect(chosen.message).toMatch(
      /Port 5180 is in use .* uses 5182\. Its offline cache is separate .*FIELDBOOK_PORT/,
    );
  });

  it('refuses a busy FIELDBOOK_PORT with how to choose another, rather than moving it', async () => {
    expect(await choosePort({ FIELDBOOK_PORT: '6001' }, busy([6001]))).toEqual({
      port: null,
      message: expect.stringMatching(/^Port 6001 \(FIELDBOOK_PORT\) is already in use.*FIELDBOOK_PORT=/),
    });
    expect((await choosePort({ FIELDBOOK_PORT: 'abc' }, busy([]))).message).toMatch(/not a port number/);
  });

  it('tells a port in use from a free one', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    expect(await portIsFree(port)).toBe(false);
    await new Promise<void>((resolve) => server.close(() => resolve()));
    expect(await portIsFree(port)).toBe(true);
  });
});

describe('what npm start says when it serves the harness', () => {
  it('says in one line that its cache can be read by whoever holds its port once it stops, and that the desktop app is not exposed', () => {
    const note = harnessCacheNote('5182');
    expect(note).not.toContain('\n');
    expect(note).toContain('http://127.0.0.1:5182');
    expect(note).toMatch(
      /once the harness stops, any program on this computer that takes that port can read it/,
    );
    expect(note).toMatch(/desktop app is not exposed/);
  });

  it('is printed by npm start on the harness path, with the port it chose', () => {
    const start = readFileSync(new URL('./start.mjs', import.meta.url), 'utf8');
    expect(start).toMatch(
      /const port = await harnessPortOrExit\(process\.env\);[^\n]*\n\s*console\.log\(harnessCacheNote\(port\)\);/,
    );
  });
});
