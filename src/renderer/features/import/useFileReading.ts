/**
 * Reading a dropped file in the worker: progress, Cancel, the last file
 * dropped wins, and a refused file clears the previous one (with its error).
 */
import { useRef, useState } from 'react';
import { readInWorker, type Reading } from './reader.ts';
import type { RawTable } from './read/table.ts';

/** `load` resolves to the table read, or null (refused, cancelled, or a later file won). */
export function useFileReading(onStart: () => void) {
  const [fileName, setFileName] = useState<string | null>(null);
  const [table, setTable] = useState<RawTable | null>(null);
  const [reading, setReading] = useState<{ name: string; rows: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const activeReading = useRef<Reading | null>(null);

  const load = async (file: File): Promise<RawTable | null> => {
    // a new file replaces whatever was shown or being read
    onStart();
    setError(null);
    setTable(null);
    setFileName(null);
    setReading({ name: file.name, rows: 0 });
    const started = readInWorker(file, (rows) => {
      if (activeReading.current === started) setReading({ name: file.name, rows });
    });
    activeReading.current = started;
    const outcome = await started.done;
    if (activeReading.current !== started) return null; // a later file won
    activeReading.current = null;
    setReading(null);
    if (!outcome.ok) {
      if (!('cancelled' in outcome)) setError(`${file.name}: ${outcome.error}`);
      return null;
    }
    setFileName(file.name);
    setTable(outcome.table);
    return outcome.table;
  };
  const cancel = () => {
    activeReading.current?.cancel();
  };
  /** the file is done with (queued): its preview goes */
  const clear = () => setTable(null);
  return { fileName, table, reading, error, load, cancel, clear };
}
