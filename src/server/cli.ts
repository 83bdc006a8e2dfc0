/**
 * `node src/server/cli.ts --port 4010 --dataset demo [--db PATH] [--faults SPEC] [--admin] [--hostile] [--host H]
 * [--seed N] [--today YYYY-MM-DD]`
 * Prints one JSON line (baseUrl and tokens) once listening; stops on SIGINT/SIGTERM.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseFaultSpec } from './faults.ts';
import { isDatasetName } from './datasets.ts';
import { startServer, type ServerOptions } from './index.ts';

const USAGE =
  'usage: cli.ts [--port N] [--dataset tiny|demo|m|l|xl|multi] [--db PATH] [--faults "latency=20,error=0.1,drop=0.05,lost=0.05,inflight=4,retryafter=1"] [--admin] [--hostile] [--host H] [--seed N] [--today YYYY-MM-DD]';

/** Command-line arguments -> server options; throws with a readable message on a bad argument. */
export function parseCliArgs(argv: string[]): ServerOptions {
  const opts: ServerOptions = { port: 4010 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const integer = (): number => {
      const v = value();
      if (!/^\d+$/.test(v)) throw new Error(`${arg} needs a whole number, got "${v}"`);
      return Number(v);
    };
    switch (arg) {
      case '--port':
        opts.port = integer();
        break;
      case '--seed':
        opts.seed = integer();
        break;
      case '--host':
        opts.host = value();
        break;
      case '--db':
        opts.dbPath = value();
        break;
      case '--admin':
        opts.admin = true;
        break;
      case '--hostile':
        opts.hostile = true;
        break;
      case '--faults':
        opts.faults = parseFaultSpec(value());
        break;
      case '--today': {
        const v = value();
        if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new Error('--today needs YYYY-MM-DD');
        opts.today = v;
        break;
      }
      case '--dataset': {
        const v = value();
        if (!isDatasetName(v)) throw new Error(`unknown dataset "${v}"`);
        opts.dataset = v;
        break;
      }
      default:
        throw new Error(`unknown argument ${arg}`);
    }
  }
  return opts;
}

async function main(): Promise<void> {
  let opts: ServerOptions;
  try {
    opts = parseCliArgs(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exit(2);
  }
  const server = await startServer(opts);
  const started = {
    baseUrl: server.baseUrl,
    tokens: server.tokens,
    dataset: server.dataset,
    admin: opts.admin ?? false,
  };
  process.stdout.write(`${JSON.stringify(started)}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

// run only when executed directly, so tests can import parseCliArgs
if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) void main();
