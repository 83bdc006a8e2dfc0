/**
 * The columns of a file read for import: which row is the header, the site,
 * the key that finds people and the mode, the column of each field, how dates
 * are written, the columns ignored, and named presets of all of it.
 */
import { useState } from 'react';
import type { SiteRecord } from '../../../shared/records.ts';
import { columnLetter } from '../../../shared/spreadsheet-export.ts';
import { readSummary, type Sheet } from './header.ts';
import {
  FIELD_LABELS,
  ignoredColumns,
  IMPORT_FIELDS,
  type ColumnMapping,
  type ImportField,
} from './mapping.ts';
import type { ImportMode, MatchKey } from './match.ts';
import type { RawTable } from './read/table.ts';
import type { DayMonthOrder } from './text-date.ts';

const KEY_LABELS: Record<MatchKey, string> = {
  employeeid: 'Employee ID',
  username: 'Username',
  email: 'E-mail',
};
const MODE_LABELS: Record<ImportMode, string> = {
  upsert: 'Create new people and update known ones',
  create: 'Only create new people',
  update: 'Only update people already on the site',
};

/** What the user chose for the file's columns. */
export interface ColumnChoices {
  headerIndex: number;
  /** null: not chosen yet (the token sees several sites) */
  siteid: number | null;
  key: MatchKey;
  mode: ImportMode;
  mapping: ColumnMapping;
  dateOrder: DayMonthOrder | undefined;
}

interface Props {
  fileName: string | null;
  table: RawTable;
  sheet: Sheet;
  sites: SiteRecord[];
  choices: ColumnChoices;
  onHeader: (index: number) => void;
  onChange: (next: Partial<Omit<ColumnChoices, 'headerIndex'>>) => void;
  presetApplied: string | null;
  onForgetPreset: () => void;
  onSavePreset: (name: string) => void;
}

export function ImportColumnsForm({
  fileName,
  table,
  sheet,
  sites,
  choices,
  onHeader,
  onChange,
  ...presets
}: Props) {
  const { headerIndex, siteid, mapping } = choices;
  const ignored = ignoredColumns(sheet.headers, mapping);
  return (
    <fieldset>
      <legend>Columns of {fileName}</legend>
      <p>{readSummary(table.source, sheet)}</p>
      {[...table.notes, ...sheet.warnings].map((w) => (
        <p key={w} className="import-note">
          {w}
        </p>
      ))}
      <HeaderRowChoice table={table} headerIndex={headerIndex} onHeader={onHeader} />
      {sites.length > 1 && <SiteChoice sites={sites} siteid={siteid} onChange={onChange} />}
      <KeyAndModeChoices choices={choices} onChange={onChange} />
      <FieldColumns headers={sheet.headers} mapping={mapping} onChange={onChange} />
      <DateOrderChoice choices={choices} onChange={onChange} />
      {ignored.length > 0 && <p>Ignored columns: {ignored.map((i) => sheet.headers[i]).join(', ')}.</p>}
      <PresetControls {...presets} />
    </fieldset>
  );
}

type Change = Props['onChange'];

function HeaderRowChoice({
  table,
  headerIndex,
  onHeader,
}: Pick<Props, 'table' | 'onHeader'> & { headerIndex: number }) {
  return (
    <label>
      Header row{' '}
      <select value={headerIndex} onChange={(e) => onHeader(Number(e.target.value))}>
        {table.rows.slice(0, 30).map((r, i) => (
          <option key={r.rowNumber} value={i}>
            Row {r.rowNumber}: {r.cells.filter(Boolean).slice(0, 4).join(', ').slice(0, 80)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The site of the file's people, asked when the token sees several. */
function SiteChoice({
  sites,
  siteid,
  onChange,
}: {
  sites: SiteRecord[];
  siteid: number | null;
  onChange: Change;
}) {
  return (
    <>
      <label>
        Site of these people{' '}
        <select
          value={siteid ?? ''}
          required
          aria-invalid={siteid === null}
          onChange={(e) => onChange({ siteid: Number(e.target.value) })}
        >
          {siteid === null && (
            <option value="" disabled>
              Choose a site…
            </option>
          )}
          {sites.map((s) => (
            <option key={s.siteid} value={s.siteid}>
              {s.sitename}
            </option>
          ))}
        </select>
      </label>
      {siteid === null && (
        <p role="status" aria-label="Choose the site">
          Choose the site of these people: the rows are checked against its people once you do, and nothing
          can be queued before.
        </p>
      )}
    </>
  );
}

function KeyAndModeChoices({ choices, onChange }: { choices: ColumnChoices; onChange: Change }) {
  const { key, mode } = choices;
  return (
    <>
      <label>
        Find people by{' '}
        <select value={key} onChange={(e) => onChange({ key: e.target.value as MatchKey })}>
          {(Object.keys(KEY_LABELS) as MatchKey[]).map((k) => (
            <option key={k} value={k}>
              {KEY_LABELS[k]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Mode{' '}
        <select value={mode} onChange={(e) => onChange({ mode: e.target.value as ImportMode })}>
          {(Object.keys(MODE_LABELS) as ImportMode[]).map((m) => (
            <option key={m} value={m}>
              {MODE_LABELS[m]}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** The column of each field, or "not in the file". */
function FieldColumns({
  headers,
  mapping,
  onChange,
}: {
  headers: string[];
  mapping: ColumnMapping;
  onChange: Change;
}) {
  return IMPORT_FIELDS.map((field) => (
    <label key={field}>
      {FIELD_LABELS[field]}{' '}
      <select
        value={mapping[field] ?? -1}
        onChange={(e) => onChange({ mapping: remap(mapping, field, Number(e.target.value)) })}
      >
        <option value={-1}>(not in the file)</option>
        {headers.map((h, i) => (
          <option key={i} value={i}>
            {h || `Column ${columnLetter(i)}`}
          </option>
        ))}
      </select>
    </label>
  ));
}

function DateOrderChoice({ choices, onChange }: { choices: ColumnChoices; onChange: Change }) {
  return (
    <label>
      Dates written as{' '}
      <select
        value={choices.dateOrder ?? ''}
        onChange={(e) =>
          onChange({ dateOrder: e.target.value === '' ? undefined : (e.target.value as DayMonthOrder) })
        }
      >
        <option value="">Unambiguous only (03/04/2026 is refused)</option>
        <option value="dmy">Day first (03/04/2026 is 3 April)</option>
        <option value="mdy">Month first (03/04/2026 is March 4)</option>
      </select>
    </label>
  );
}

function PresetControls({
  presetApplied,
  onForgetPreset,
  onSavePreset,
}: Pick<Props, 'presetApplied' | 'onForgetPreset' | 'onSavePreset'>) {
  const [presetName, setPresetName] = useState('');
  return (
    <>
      {presetApplied && (
        <p role="status">
          Preset “{presetApplied}” applied (saved for these headers).{' '}
          <button type="button" onClick={onForgetPreset}>
            Forget this preset
          </button>
        </p>
      )}
      <label>
        Save these columns as a preset{' '}
        <input
          value={presetName}
          onChange={(e) => setPresetName(e.target.value)}
          placeholder="e.g. HR weekly export"
        />
      </label>{' '}
      <button
        type="button"
        disabled={!presetName.trim()}
        onClick={() => {
          onSavePreset(presetName);
          setPresetName('');
        }}
      >
        Save preset
      </button>
    </>
  );
}

function remap(mapping: ColumnMapping, field: ImportField, column: number): ColumnMapping {
  const next = { ...mapping };
  if (column < 0) delete next[field];
  else next[field] = column;
  return next;
}
