/**
 * The browser mode's command line (what `npm start` runs where Electron cannot):
 *
 *   node --experimental-strip-types --no-warnings src/browser-mode/cli.ts [--port N]
 *        [--server-url URL --token T | --dataset demo|tiny|m|l] [--settings-dir DIR]
 *
 * Its first line on stdout is JSON ({ url, settingsDir }) for the programs that
 * start it; the lines after it are for the person who did.
 */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { KEYCHAIN_SERVICE, KeytarKeychain } from '../main/secrets/keytar-keychain.ts';
import type { DatasetName } from './demo.ts';
import { startBrowserMode, type BrowserModeOptions } from './host.ts';

const DATASETS: readonly string[] = ['tiny', 'demo', 'm', 'l'] satisfies DatasetName[];

function argValue(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
}

function isDataset(name: string | undefined): name is DatasetName {
  return name !== undefined && DATASETS.includes(name);
}

function optionsFromArgs(args: string[]): BrowserModeOptions {
  const dataset = argValue(args, '--dataset');
  return {
    port: Number(argValue(args, '--port') ?? 0),
    settingsDir: argValue(args, '--settings-dir') ?? path.join(os.tmpdir(), 'fieldbook-harness-settings'),
    keychain: new KeytarKeychain(KEYCHAIN_SERVICE),
    serverUrl: argValue(args, '--server-url'),
    token: argValue(args, '--token'),
    dataset: isDataset(dataset) ? dataset : undefined,
  };
}

async function main(): Promise<void> {
  const options = optionsFromArgs(process.argv.slice(2));
  const browserMode = await startBrowserMode(options);
  console.log(JSON.stringify({ url: browserMode.url, settingsDir: options.settingsDir }));
  console.log(
    `Fieldbook (browser mode) is running at ${browserMode.url} — open it in Chromium. Press Ctrl+C to stop.`,
  );
  console.log(
    'The address carries this launch’s key (new at every start): only a page opened with it can use Fieldbook. Do not share it.',
  );
  const stop = () => void browserMode.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(
      `Fieldbook's browser mode could not start: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  });
}
