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

/** What reading, checking and adding the requirements of one file came to. */
async function importRequirements(
  db: FieldbookDb,
  catalog: RequirementCatalog,
  file: File,
): Promise<Outcome> {
  const read = await readInWorker(file, () => undefined).done;
  if (!read.ok) {
    if ('cancelled' in read) return null;
    return { kind: 'errors', title: `${file.name}: the file could not be read.`, errors: [read.error] };
  }
  const requirements = readRequirements(read.table.rows, catalog);
  if (!requirements.ok) {
    return {
      kind: 'errors',
      title: `${file.name}: nothing was added. Correct these rows and drop the file again.`,
      errors: requirements.errors,
    };
  }
  const known = new Set(
    await db.requirements
      .bulkGet(requirements.rows.map((r) => r.id))
      .then((rows) => rows.filter(Boolean).map((r) => r!.id)),
  );
  await db.requirements.bulkPut(requirements.rows);
  const added = requirements.rows.length - known.size;
  const already = known.size > 0 ? `, ${plural(known.size, 'was', 'were')} already set` : '';
  return { kind: 'added', text: `${file.name}: ${plural(added, 'requirement')} added${already}.` };
}

export function RequirementsImport({ db, catalog }: { db: FieldbookDb; catalog: RequirementCatalog }) {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const importFile = async (file: File) => {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await importRequirements(db, catalog, file));
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
      {outcome?.kind === 'errors' && <ImportErrors title={outcome.title} errors={outcome.errors} />}
    </div>
  );
}

function ImportErrors({ title, errors }: { title: string; errors: string[] }) {
  return (
    <div role="alert">
      <p>{title}</p>
      <ul>
        {errors.slice(0, 20).map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
      {errors.length > 20 && <p>…and {plural(errors.length - 20, 'more row')}.</p>}
    </div>
  );
}
