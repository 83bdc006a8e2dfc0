/**
 * Saved mappings: a named preset remembers which column (by its header name)
 * holds which field, the key and the mode. When a file with the same headers
 * comes again, its preset is applied by itself. Kept in this window's local
 * storage: they are the coordinator's own settings, not site data.
 */
import { IMPORT_FIELDS, squashHeader, type ColumnMapping, type ImportField } from './mapping.ts';
import type { ImportMode, MatchKey } from './match.ts';

export interface ImportPreset {
  name: string;
  /** the squashed header names of the file it was saved for */
  headers: string[];
  /** field → squashed header name */
  columns: Partial<Record<ImportField, string>>;
  key: MatchKey;
  mode: ImportMode;
}

const STORAGE_KEY = 'fieldbook.import.presets';

const signature = (headers: readonly string[]) =>
  headers.map(squashHeader).filter(Boolean).sort().join('\u0001');

export function loadPresets(storage: Pick<Storage, 'getItem'> = localStorage): ImportPreset[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter(isPreset) : [];
  } catch {
    return [];
  }
}

function isPreset(value: unknown): value is ImportPreset {
  const p = value as Partial<ImportPreset> | null;
  return (
    !!p &&
    typeof p.name === 'string' &&
    Array.isArray(p.headers) &&
    typeof p.columns === 'object' &&
    typeof p.key === 'string' &&
    typeof p.mode === 'string'
  );
}

/** Saves (or replaces, by name) a preset for these headers and settings; returns the new list. */
export function savePreset(
  name: string,
  headers: readonly string[],
  mapping: ColumnMapping,
  key: MatchKey,
  mode: ImportMode,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): ImportPreset[] {
  const columns: ImportPreset['columns'] = {};
  for (const field of IMPORT_FIELDS) {
    const column = mapping[field];
    if (column !== undefined && headers[column]) columns[field] = squashHeader(headers[column]);
  }
  const preset: ImportPreset = {
    name: name.trim(),
    headers: headers.map(squashHeader).filter(Boolean),
    columns,
    key,
    mode,
  };
  const list = [...loadPresets(storage).filter((p) => p.name !== preset.name), preset];
  storage.setItem(STORAGE_KEY, JSON.stringify(list));
  return list;
}

export function deletePreset(
  name: string,
  storage: Pick<Storage, 'getItem' | 'setItem'> = localStorage,
): ImportPreset[] {
  const list = loadPresets(storage).filter((p) => p.name !== name);
  storage.setItem(STORAGE_KEY, JSON.stringify(list));
  return list;
}

/** The preset saved for exactly these headers (in any order), if any. */
export function presetFor(
  headers: readonly string[],
  presets: readonly ImportPreset[],
): ImportPreset | undefined {
  const wanted = signature(headers);
  return presets.findLast((p) => signature(p.headers) === wanted);
}

/** A preset's mapping on these headers (columns found by name). */
export function applyPreset(preset: ImportPreset, headers: readonly string[]): ColumnMapping {
  const squashed = headers.map(squashHeader);
  const mapping: ColumnMapping = {};
  for (const field of IMPORT_FIELDS) {
    const name = preset.columns[field];
    const index = name === undefined ? -1 : squashed.indexOf(name);
    if (index >= 0) mapping[field] = index;
  }
  return mapping;
}
