/** Messages between the import view and its worker (reading a file, writing a results file). */
import type { RawRow } from './read/table.ts';

export type WorkerRequest =
  | { type: 'read'; name: string; bytes: ArrayBuffer }
  | { type: 'write'; rows: string[][]; format: 'csv' | 'xlsx'; sheetName: string };

export type WorkerReply =
  | { type: 'progress'; rows: number }
  | { type: 'rows'; rows: RawRow[] }
  | { type: 'done'; source: string; notes: string[]; count: number }
  | { type: 'error'; message: string }
  | { type: 'written'; bytes: ArrayBuffer };
