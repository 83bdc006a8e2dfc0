/**
 * A number cell of a workbook as the spreadsheet shows it: through its number
 * format. Covers what HR exports use: zero-padded ids ("00000", "000-00-0000"),
 * fixed decimals and thousands separators, percentages, text ("@") and dates
 * (built-in formats 14-22, 45-47 and any custom format of d, m, y, h, s).
 * Anything else shows the number itself, without floating-point noise.
 */

/** Excel's built-in format ids that show dates or times. */
const BUILTIN_DATES = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);
const BUILTIN_CODES: Record<number, string> = {
  1: '0',
  2: '0.00',
  3: '#,##0',
  4: '#,##0.00',
  9: '0%',
  10: '0.00%',
  49: '@',
};

export interface NumberFormat {
  kind: 'general' | 'date' | 'text' | 'pattern';
  code: string;
}

export function numberFormatOf(id: number, custom: ReadonlyMap<number, string>): NumberFormat {
  if (BUILTIN_DATES.has(id))
    return { kind: 'date', code: id >= 18 && id <= 21 ? 'time' : id === 22 ? 'datetime' : 'date' };
  const code = custom.get(id) ?? BUILTIN_CODES[id];
  if (!code || code.toLowerCase() === 'general') return { kind: 'general', code: '' };
  if (code === '@') return { kind: 'text', code };
  const bare = stripLiterals(code.split(';')[0] ?? '');
  if (/[dmyhs]/i.test(bare.replace(/\[[^\]]*\]/g, '')))
    return { kind: 'date', code: /[hs]/i.test(bare) ? (/[dy]/i.test(bare) ? 'datetime' : 'time') : 'date' };
  return { kind: 'pattern', code };
}

function stripLiterals(code: string): string {
  return code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/_./g, '')
    .replace(/\*./g, '');
}

/** A number without binary noise: 0.1 + 0.2 shows as 0.3, integers in full (no 1.2E+12). */
export function plainNumber(value: number): string {
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? value.toFixed(0) : String(value);
  return String(Number(value.toPrecision(15)));
}

/** An Excel serial date as ISO 8601 (date, or date and time). */
export function serialToIso(serial: number, date1904: boolean, what: string): string {
  // Excel's 1900 system counts a 29 February 1900 that never was: serials before it are one day off
  const days = date1904 ? serial + 1462 : serial < 60 ? serial + 1 : serial;
  const iso = new Date(Date.UTC(1899, 11, 30) + Math.round(days * 86_400_000)).toISOString();
  if (what === 'time') return iso.slice(11, 19);
  const time = iso.slice(11, 19);
  return what === 'datetime' && time !== '00:00:00' ? `${iso.slice(0, 10)} ${time}` : iso.slice(0, 10);
}

/** The number as the format shows it. */
export function formatNumber(value: number, format: NumberFormat, date1904: boolean): string {
  if (format.kind === 'date')
    return Number.isFinite(value) && value >= 0 && value < 2_958_466
      ? serialToIso(value, date1904, format.code)
      : plainNumber(value);
  if (format.kind !== 'pattern') return plainNumber(value);
  const section = stripLiterals(format.code.split(';')[0] ?? '');
  const literals = (format.code.split(';')[0] ?? '').replace(/\[[^\]]*\]/g, '');
  // zero-padded digits with literal separators, like 00000 or 000-00-0000
  const digitsOnly = literals.replace(/"([^"]*)"/g, '$1').replace(/\\(.)/g, '$1');
  if (/^[0-]+$|^[0 ]+$/.test(digitsOnly) && /0/.test(digitsOnly) && Number.isInteger(value) && value >= 0) {
    const zeros = (digitsOnly.match(/0/g) ?? []).length;
    const digits = value.toFixed(0).padStart(zeros, '0');
    if (digits.length > zeros) return digits;
    let at = 0;
    return digitsOnly.replace(/0/g, () => digits[at++] ?? '');
  }
  const number = /^([#,0]*)(?:\.(0+))?(%?)$/.exec(section.replace(/\[[^\]]*\]/g, '').trim());
  if (!number) return plainNumber(value);
  const [, whole = '', decimals = '', percent] = number;
  const scaled = percent ? value * 100 : value;
  const minWhole = (whole.match(/0/g) ?? []).length;
  const fixed = Math.abs(scaled).toFixed(decimals.length);
  const [int = '0', frac] = fixed.split('.');
  let intText = int.padStart(minWhole, '0');
  if (minWhole === 0 && intText === '0' && frac) intText = '';
  if (whole.includes(',')) intText = intText.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${scaled < 0 ? '-' : ''}${intText || (frac ? '' : '0')}${frac ? `.${frac}` : ''}${percent}`;
}
