/**
 * The import boundaries in eslint.config.js, as a specification: each rule is
 * checked against a one-line file placed where it would live in the tree, so a
 * change to the lint configuration that lets a boundary slip fails here.
 */
import { ESLint } from 'eslint';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: resolve(import.meta.dirname, '..') });

async function importErrors(filePath: string, specifier: string): Promise<string[]> {
  const code = `import * as probe from '${specifier}';\nexport const used = probe;\n`;
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId?.endsWith('no-restricted-imports'))
    .map((m) => m.message);
}

describe('test helpers stay out of production code', () => {
  it('refuses a main-process module importing a testing/ helper', async () => {
    expect(await importErrors('src/main/sync/probe.ts', '../testing/fake-api.ts')).toEqual([
      expect.stringContaining('only tests may import them'),
    ]);
  });

  it('refuses a renderer module importing the renderer fixtures', async () => {
    expect(await importErrors('src/renderer/features/users/probe.ts', '../../testing/fixtures.ts')).toEqual([
      expect.stringContaining('only tests may import them'),
    ]);
  });

  it('refuses a shared module importing the shared test ops', async () => {
    expect(await importErrors('src/shared/replay-queue/probe.ts', '../testing/test-ops.ts')).toEqual([
      expect.stringContaining('only tests may import them'),
    ]);
  });

  it('refuses the reference server importing its testkit', async () => {
    expect(await importErrors('src/server/probe.ts', './testing/testkit.ts')).toEqual([
      expect.stringContaining('only tests may import them'),
    ]);
  });

  it('lets a test import a testing/ helper', async () => {
    expect(await importErrors('src/main/sync/probe.test.ts', '../testing/fake-api.ts')).toEqual([]);
  });

  it('lets one testing/ helper import another', async () => {
    expect(await importErrors('src/main/testing/probe.ts', './fake-fetch.ts')).toEqual([]);
  });
});

describe('process boundaries', () => {
  it('refuses the renderer importing main-process code', async () => {
    expect(await importErrors('src/renderer/app/probe.ts', '../../main/handlers.ts')).toEqual([
      expect.stringContaining('window.fieldbook'),
    ]);
  });

  it('refuses the renderer importing Node', async () => {
    expect(await importErrors('src/renderer/app/probe.ts', 'node:fs')).toEqual([
      expect.stringContaining('no Node access'),
    ]);
  });

  it('refuses src/shared importing the renderer', async () => {
    expect(await importErrors('src/shared/probe.ts', '../renderer/db/index.ts')).toEqual([
      expect.stringContaining('pure'),
    ]);
  });

  it('still applies in renderer tests, next to the testing/ rule', async () => {
    expect(await importErrors('src/renderer/app/probe.test.ts', '../../main/handlers.ts')).toEqual([
      expect.stringContaining('window.fieldbook'),
    ]);
  });
});

describe('the browser mode is a Node process like main', () => {
  it('refuses the renderer importing the browser mode', async () => {
    expect(await importErrors('src/renderer/app/probe.ts', '../../browser-mode/host.ts')).toEqual([
      expect.stringContaining('window.fieldbook'),
    ]);
  });

  it('refuses the browser mode importing the renderer (it serves the built one)', async () => {
    expect(await importErrors('src/browser-mode/probe.ts', '../renderer/db/index.ts')).toEqual([
      expect.stringContaining('never imports it'),
    ]);
  });

  it('refuses the browser mode importing Electron (it runs where Electron cannot)', async () => {
    expect(await importErrors('src/browser-mode/probe.ts', 'electron')).toEqual([
      expect.stringContaining('without Electron'),
    ]);
  });

  it('refuses main importing the browser mode', async () => {
    expect(await importErrors('src/main/probe.ts', '../browser-mode/host.ts')).toEqual([
      expect.stringContaining('knows nothing of the browser mode'),
    ]);
  });

  it('refuses src/shared importing the browser mode', async () => {
    expect(await importErrors('src/shared/probe.ts', '../browser-mode/launch-key.ts')).toEqual([
      expect.stringContaining('pure'),
    ]);
  });

  it('refuses the browser mode importing the e2e support (the test instrumentation wraps it from there)', async () => {
    expect(await importErrors('src/browser-mode/probe.ts', '../../e2e/support/harness.ts')).toEqual([
      expect.stringContaining('never imports the e2e suite'),
    ]);
  });

  it('lets the browser mode build on main and Node', async () => {
    expect(await importErrors('src/browser-mode/probe.ts', '../main/handlers.ts')).toEqual([]);
    expect(await importErrors('src/browser-mode/probe.ts', 'node:http')).toEqual([]);
  });
});

describe('no function over about 80 lines without a reason', () => {
  const longFunction = (disable: string) =>
    `${disable}export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(90)}  return n;\n}\n`;
  async function lengthErrors(filePath: string, code: string): Promise<number> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'max-lines-per-function').length;
  }

  it('refuses a 92-line function in production code', async () => {
    expect(await lengthErrors('src/main/services/probe.ts', longFunction(''))).toBe(1);
  });

  it('refuses a 92-line function in the browser mode', async () => {
    expect(await lengthErrors('src/browser-mode/probe.ts', longFunction(''))).toBe(1);
  });

  it('refuses a long React component in a view', async () => {
    expect(await lengthErrors('src/renderer/features/outbox/Probe.tsx', longFunction(''))).toBe(1);
  });

  it('accepts a long function with its reason written next to it', async () => {
    expect(
      await lengthErrors(
        'src/main/services/probe.ts',
        longFunction('// eslint-disable-next-line max-lines-per-function -- one table read top to bottom\n'),
      ),
    ).toBe(0);
  });

  it('leaves tests alone: a describe reads as the list of its cases', async () => {
    expect(await lengthErrors('src/main/services/probe.test.ts', longFunction(''))).toBe(0);
  });
});
