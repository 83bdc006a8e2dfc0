/** Saved mappings, applied again when the same headers come back. */
import { describe, expect, it } from 'vitest';
import { applyPreset, deletePreset, loadPresets, presetFor, savePreset } from './presets.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}

describe('import presets', () => {
  const headers = ['Badge', 'Given', 'Family', 'Mail'];

  it('applies a saved preset to a file with the same headers, in another order and spelling', () => {
    const storage = memoryStorage();
    savePreset(
      'HR weekly',
      headers,
      { employeeid: 0, firstname: 1, lastname: 2, email: 3 },
      'employeeid',
      'update',
      storage,
    );
    const again = ['mail', 'FAMILY', 'given', 'badge'];
    const preset = presetFor(again, loadPresets(storage));
    expect(preset).toMatchObject({ name: 'HR weekly', key: 'employeeid', mode: 'update' });
    expect(applyPreset(preset!, again)).toEqual({ email: 0, lastname: 1, firstname: 2, employeeid: 3 });
  });

  it('does not apply a preset to a file with other headers', () => {
    const storage = memoryStorage();
    savePreset('HR weekly', headers, { employeeid: 0 }, 'employeeid', 'upsert', storage);
    expect(presetFor([...headers, 'Site'], loadPresets(storage))).toBeUndefined();
  });

  it('replaces a preset saved again under the same name, and deletes one', () => {
    const storage = memoryStorage();
    savePreset('P', headers, { employeeid: 0 }, 'employeeid', 'upsert', storage);
    savePreset('P', headers, { username: 0 }, 'username', 'create', storage);
    expect(loadPresets(storage)).toMatchObject([{ name: 'P', key: 'username', mode: 'create' }]);
    expect(deletePreset('P', storage)).toEqual([]);
  });

  it('ignores unreadable stored presets', () => {
    const storage = memoryStorage();
    storage.setItem('fieldbook.import.presets', '{not json');
    expect(loadPresets(storage)).toEqual([]);
  });
});
