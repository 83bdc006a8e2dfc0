/** Messages between the import view and its worker (reading a file, writing a results file). */
import type { EncodingQuestion } from './read/table.ts';
import type { PackedRows } from './rows-sender.ts';

export type WorkerRequest =
  /** `encoding`: the one the user chose for a text file that is not UTF-8 */
  | { type: 'read'; name: string; bytes: ArrayBuffer; encoding?: string }
  | { type: 'write'; rows: string[][]; format: 'csv' | 'xlsx'; sheetName: string };

export type WorkerReply =
  | { type: 'rows'; rows: PackedRows }
  | { type: 'done'; source: string; notes: string[]; count: number; encoding?: EncodingQuestion }
  | { type: 'error'; message: string }
  | { type: 'written'; bytes: ArrayBuffer };
