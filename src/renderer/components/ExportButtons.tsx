/** "Export CSV" and "Export XLSX" for a list: the whole list as filtered, not only the rows on screen. */
import { useState } from 'react';
import { exportTable, type ExportFormat, type Table } from '../app/export-list.ts';
import { ErrorMessage, errorFromUnknown } from './ErrorMessage.tsx';

export function ExportButtons({
  what,
  load,
  disabled = false,
}: {
  what: string;
  load: () => Promise<Table>;
  disabled?: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ReturnType<typeof errorFromUnknown> | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(true);
    setError(null);
    try {
      await exportTable(await load(), what, format);
    } catch (e) {
      setError(errorFromUnknown(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="export-buttons">
      {(['csv', 'xlsx'] as const).map((format) => (
        <button key={format} type="button" disabled={disabled || busy} onClick={() => void run(format)}>
          Export<span className="visually-hidden"> {what} as</span> {format.toUpperCase()}
        </button>
      ))}
      <ErrorMessage error={error} onDismiss={() => setError(null)} />
    </span>
  );
}
