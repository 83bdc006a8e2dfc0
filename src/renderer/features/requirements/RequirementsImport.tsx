/**
 * Requirements from a spreadsheet (XLSX or CSV), dropped or chosen: read by
 * the import reader (its worker), checked row by row, added all at once or
 * not at all, with every row that does not read listed.
 */
import { useState, type DragEvent } from 'react';
import { plural } from '../../app/words.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { readInWorker } from '../import/reader.ts';
import { readRequirements, type RequirementCatalog } from './io.ts';

type Outcome = { kind: 'added'; text: string } | { kind: 'errors'; title: string; errors: string[] } | null;

// eslint-disable-next-line max-lines-per-function -- over 80 lines once Prettier unpacked it: to be split into named steps (issue 36)
export function RequirementsImport({ db, catalog }: { db: FieldbookDb; catalog: RequirementCatalog }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const importFile = async (file: File) => {
    setBusy(true);
    setOutcome(null);
    try {
      const read = await readInWorker(file, () => undefined).done;
      if (!read.ok) {
        if (!('cancelled' in read))
          setOutcome({
            kind: 'errors',
            title: `${file.name}: the file could not be read.`,
            errors: [read.error],
          });
        return;
      }
      const requirements = readRequirements(read.table.rows, catalog);
      if (!requirements.ok) {
        setOutcome({
          kind: 'errors',
          title: `${file.name}: nothing was added. Correct these rows and drop the file again.`,
          errors: requirements.errors,
        });
        return;
      }
      const known = new Set(
        await db.requirements
          .bulkGet(requirements.rows.map((r) => r.id))
          .then((rows) => rows.filter(Boolean).map((r) => r!.id)),
      );
      await db.requirements.bulkPut(requirements.rows);
      const added = requirements.rows.length - known.size;
      setOutcome({
        kind: 'added',
        text: `${file.name}: ${plural(added, 'requirement')} added${known.size > 0 ? `, ${plural(known.size, 'was', 'were')} already set` : ''}.`,
      });
    } finally {
      setBusy(false);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    const file = event.dataTransfer.files[0];
    if (file) void importFile(file);
  };
  return (
    <div className="requirements-import drop-zone" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <label>
        Import requirements (XLSX or CSV: drop the file here, or choose it){' '}
        <input
          type="file"
          accept=".xlsx,.csv,.txt"
          disabled={busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void importFile(f);
            e.target.value = '';
          }}
        />
      </label>
      <p className="report-also">
        Columns: Site, Applies to (Everyone at the site, Group or User type), Group or user type (as “Role:
        Driver”), Kind (Credential or Course), Credential or course. Export first to get a filled-in example.
      </p>
      {busy && <p role="status">Reading…</p>}
      {outcome?.kind === 'added' && <p role="status">{outcome.text}</p>}
      {outcome?.kind === 'errors' && (
        <div role="alert">
          <p>{outcome.title}</p>
          <ul>
            {outcome.errors.slice(0, 20).map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
          {outcome.errors.length > 20 && <p>…and {plural(outcome.errors.length - 20, 'more row')}.</p>}
        </div>
      )}
    </div>
  );
}
