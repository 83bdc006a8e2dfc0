/** Messages between the import view and its reading worker. */
import type { RawRow } from './read/table.ts';

export interface WorkerRequest {
  name: string;
  bytes: ArrayBuffer;
}

export type WorkerReply =
  | { type: 'progress'; rows: number }
  | { type: 'rows'; rows: RawRow[] }
  | { type: 'done'; source: string; notes: string[]; count: number }
  | { type: 'error'; message: string };
