/**
 * The watchdog behind `setup.ts`: the test's thread writes a heartbeat into shared
 * memory every 250 ms and the name and time limit of the test it runs; a worker
 * thread reads them. When the heartbeat is older than the limit plus a grace period,
 * the thread writes the test's name straight to stderr (the main thread, blocked,
 * would never forward it) and kills the process.
 */
import { Worker } from 'node:worker_threads';

const BEAT_MS = 250;
const GRACE_MS = 5_000;
/** Between tests (hooks, imports): the suite's hook timeout. */
const IDLE_LIMIT_MS = 60_000;
const NAME_BYTES = 512;

// Layout of the shared buffer: [0] last beat (ms, float64), [1] limit (ms); then the name's length and bytes.
const WATCHER = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const times = new Float64Array(workerData, 0, 2);
const nameLength = new Int32Array(workerData, 16, 1);
const name = new Uint8Array(workerData, 20, ${NAME_BYTES});
setInterval(() => {
  const blocked = Date.now() - times[0];
  if (blocked <= times[1] + ${GRACE_MS}) return;
  const test = Buffer.from(name.slice(0, nameLength[0])).toString('utf8') || '(between tests)';
  writeSync(2, '\\n[watchdog] "' + test + '" blocked its worker for ' + Math.round(blocked / 1000) + ' s without yielding (its timeout could not fire): killing the worker so the run fails instead of hanging.\\n');
  process.kill(process.pid, 'SIGKILL');
}, ${BEAT_MS});
`;

export interface Watchdog {
  enter(testName: string, timeoutMs: number): void;
  leave(): void;
  stop(): void;
}

export function startWatchdog(): Watchdog {
  const shared = new SharedArrayBuffer(20 + NAME_BYTES);
  const times = new Float64Array(shared, 0, 2);
  const nameLength = new Int32Array(shared, 16, 1);
  const name = new Uint8Array(shared, 20, NAME_BYTES);
  const beat = () => {
    times[0] = Date.now();
  };
  const setName = (text: string) => {
    const bytes = new TextEncoder().encode(text).subarray(0, NAME_BYTES);
    name.set(bytes);
    nameLength[0] = bytes.length;
  };
  beat();
  times[1] = IDLE_LIMIT_MS;
  const timer = setInterval(beat, BEAT_MS);
  timer.unref();
  const worker = new Worker(WATCHER, { eval: true, workerData: shared });
  worker.unref();
  return {
    enter(testName, timeoutMs) {
      beat();
      setName(testName);
      times[1] = Math.max(timeoutMs, 1_000);
    },
    leave() {
      beat();
      setName('');
      times[1] = IDLE_LIMIT_MS;
    },
    stop() {
      clearInterval(timer);
      void worker.terminate();
    },
  };
}
