import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './cli.ts';

describe('command-line arguments', () => {
  it('read port, dataset, db, faults and flags', () => {
    expect(
      parseCliArgs([
        '--port',
        '0',
        '--dataset',
        'tiny',
        '--db',
        '/tmp/x.db',
        '--faults',
        'error=0.1,inflight=4',
        '--admin',
        '--hostile',
        '--seed',
        '9',
      ]),
    ).toEqual({
      port: 0,
      dataset: 'tiny',
      dbPath: '/tmp/x.db',
      faults: { errorRate: 0.1, maxInFlightPerToken: 4 },
      admin: true,
      hostile: true,
      seed: 9,
    });
  });

  it('default to port 4010', () => {
    expect(parseCliArgs([]).port).toBe(4010);
  });

  it('refuse an unknown dataset or argument with a readable message', () => {
    expect(() => parseCliArgs(['--dataset', 'huge'])).toThrow(/unknown dataset "huge"/);
    expect(() => parseCliArgs(['--verbose'])).toThrow(/unknown argument --verbose/);
    expect(() => parseCliArgs(['--port'])).toThrow(/needs a value/);
  });
});

describe('the command line', () => {
  it('prints one JSON line with the base URL and the four tokens, serves, and stops on SIGTERM', async () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--no-warnings', cli, '--port', '0', '--dataset', 'tiny'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    const info = JSON.parse(line) as {
      baseUrl: string;
      tokens: { token: string; access: string; accessmoduleid?: number }[];
    };
    expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(info.tokens.map((t) => t.access)).toEqual(['full', 'readonly', 'feature', 'other-customer']);
    expect(info.tokens[2]!.accessmoduleid).toBe(3);
    const answer = await fetch(`${info.baseUrl}/sites`, { headers: { AccessToken: info.tokens[0]!.token } });
    expect(answer.status).toBe(200);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });
});
