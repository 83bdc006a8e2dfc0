/**
 * Reading a dropped file in the worker: progress, Cancel, the last file
 * dropped wins, and a refused file clears the previous one (with its error).
 * A text file that is not UTF-8 waits for the user's answer on its encoding:
 * another encoding reads it again; skipping leaves its damaged rows out.
 */
import { useMemo, useRef, useState } from 'react';
import { readInWorker, type Reading } from './reader.ts';
import type { RawTable } from './read/table.ts';
import { SKIP_DAMAGED, type EncodingAnswer } from './ImportEncodingChoice.tsx';

/** `load` resolves to the table read, or null (refused, cancelled, or a later file won). */
export function useFileReading(onStart: () => void) {
  const [fileName, setFileName] = useState<string | null>(null);
  const [read, setRead] = useState<RawTable | null>(null);
  const [reading, setReading] = useState<{ name: string; rows: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<EncodingAnswer | null>(null);
  const activeReading = useRef<Reading | null>(null);
  const file = useRef<File | null>(null);

  /** Reads `from` (in `encoding` when given); the table shown stays until the new one is read. */
  const readFile = async (from: File, encoding?: string): Promise<RawTable | null> => {
    setError(null);
    setReading({ name: from.name, rows: 0 });
    const started = readInWorker(
      from,
      (rows) => {
        if (activeReading.current === started) setReading({ name: from.name, rows });
      },
      encoding,
    );
    activeReading.current = started;
    const outcome = await started.done;
    if (activeReading.current !== started) return null; // a later file won
    activeReading.current = null;
    setReading(null);
    if (!outcome.ok) {
      if (!('cancelled' in outcome)) setError(`${from.name}: ${outcome.error}`);
      return null;
    }
    setFileName(from.name);
    setRead(outcome.table);
    return outcome.table;
  };
  const load = (from: File): Promise<RawTable | null> => {
    // a new file replaces whatever was shown or being read
    onStart();
    setRead(null);
    setFileName(null);
    setAnswer(null);
    file.current = from;
    return readFile(from);
  };
  const answerEncoding = async (next: EncodingAnswer) => {
    if (next === SKIP_DAMAGED || next === read?.encoding?.read) return setAnswer(next);
    if (!file.current) return;
    // shown chosen while the file is read again (nothing can be queued meanwhile); unchosen if that fails
    setAnswer(next);
    const started = file.current;
    const got = await readFile(started, next);
    // another answer or file since: that one decides
    if (!got && file.current === started && activeReading.current === null)
      setAnswer((now) => (now === next ? null : now));
  };
  // the damaged rows of a UTF-8 file, left out when the user chose so
  const table = useMemo(() => {
    const damaged = read?.encoding?.damagedRows;
    if (!read || answer !== SKIP_DAMAGED || !damaged) return read;
    const skipped = new Set(damaged);
    return { ...read, rows: read.rows.filter((r) => !skipped.has(r.rowNumber)) };
  }, [read, answer]);
  const cancel = () => {
    activeReading.current?.cancel();
  };
  /** the file is done with (queued): its preview goes */
  const clear = () => setRead(null);
  const encoding = {
    question: table?.encoding ?? null,
    answer,
    onAnswer: (next: EncodingAnswer) => void answerEncoding(next),
    undecided: table?.encoding !== undefined && answer === null,
  };
  return { fileName, table, reading, error, load, cancel, clear, encoding };
}
