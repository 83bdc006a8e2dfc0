/**
 * What the user chose for a file's columns: the header row, the column of each
 * field (guessed from the header, or a saved preset for the same headers), the
 * key, the mode, the date order and the site; and which rows are excluded or
 * ticked, which a new header resets.
 */
import { useState } from 'react';
import { sheetOf } from './header.ts';
import { guessMapping, type ColumnMapping } from './mapping.ts';
import type { ImportMode, MatchKey } from './match.ts';
import {
  applyPreset,
  deletePreset,
  loadPresets,
  presetFor,
  savePreset,
  type ImportPreset,
} from './presets.ts';
import type { RawTable } from './read/table.ts';
import type { DayMonthOrder } from './text-date.ts';
import type { ColumnChoices } from './ImportColumnsForm.tsx';

interface Choices {
  key: MatchKey;
  mode: ImportMode;
  mapping: ColumnMapping;
  dateOrder: DayMonthOrder | undefined;
  siteChoice: number | null;
}

const FIRST: Choices = {
  key: 'username',
  mode: 'upsert',
  mapping: {},
  dateOrder: undefined,
  siteChoice: null,
};

/** The key a guessed mapping suggests: the most stable identifier the file has. */
function keyOf(mapping: ColumnMapping): MatchKey {
  if (mapping.employeeid !== undefined) return 'employeeid';
  if (mapping.email !== undefined && mapping.username === undefined) return 'email';
  return 'username';
}

export function useColumnChoices() {
  const [choices, setChoices] = useState<Choices>(FIRST);
  const [headerIndex, setHeaderIndex] = useState(0);
  const [presets, setPresets] = useState<ImportPreset[]>(() => loadPresets());
  const [presetApplied, setPresetApplied] = useState<string | null>(null);
  const [excluded, setExcluded] = useState<ReadonlySet<number>>(new Set());
  const [ticked, setTicked] = useState<ReadonlySet<number>>(new Set());

  const chooseHeader = (index: number, rows: RawTable['rows']) => {
    setHeaderIndex(index);
    // the header as the sheet uses it (result columns of an earlier import left out)
    const headers = sheetOf(rows, index).headers;
    const preset = presetFor(headers, presets);
    setPresetApplied(preset?.name ?? null);
    const guessed = guessMapping(headers);
    setChoices((c) =>
      preset
        ? { ...c, mapping: applyPreset(preset, headers), key: preset.key, mode: preset.mode }
        : { ...c, mapping: guessed, key: keyOf(guessed) },
    );
    setExcluded(new Set());
    setTicked(new Set());
  };
  const change = (next: Partial<Omit<ColumnChoices, 'headerIndex'>>) => {
    const { siteid, ...rest } = next;
    setChoices((c) => ({ ...c, ...rest, ...(siteid !== undefined ? { siteChoice: siteid } : {}) }));
  };
  const forgetPreset = () => {
    if (presetApplied) setPresets(deletePreset(presetApplied));
    setPresetApplied(null);
  };
  const keepAsPreset = (name: string, headers: readonly string[]) => {
    setPresets(savePreset(name, headers, choices.mapping, choices.key, choices.mode));
    setPresetApplied(name.trim());
  };
  return {
    choices,
    headerIndex,
    chooseHeader,
    change,
    presetApplied,
    forgetPreset,
    keepAsPreset,
    excluded,
    setExcluded,
    ticked,
    setTicked,
  };
}
