/** Number cells as the spreadsheet shows them. */
import { describe, expect, it } from 'vitest';
import { formatNumber, numberFormatOf } from './numfmt.ts';

const custom = (code: string) => numberFormatOf(164, new Map([[164, code]]));

describe('number formats', () => {
  it.each([
    ['00000', 123, '00123'],
    ['000-00-0000', 123456789, '123-45-6789'],
    ['#,##0.00', 1234567.891, '1,234,567.89'],
    ['0.0%', 0.125, '12.5%'],
    ['@', 42, '42'],
  ])('%s shows %d as %s', (code, value, shown) => {
    expect(formatNumber(value, custom(code), false)).toBe(shown);
  });

  it('shows General numbers without floating-point noise, and long ids in full', () => {
    expect(formatNumber(0.1 + 0.2, numberFormatOf(0, new Map()), false)).toBe('0.3');
    expect(formatNumber(123456789012345, numberFormatOf(0, new Map()), false)).toBe('123456789012345');
  });

  it('shows dates from serials, built-in or custom, in the 1900 and 1904 systems', () => {
    expect(formatNumber(45356, numberFormatOf(14, new Map()), false)).toBe('2024-03-05');
    expect(formatNumber(45356, custom('dd/mm/yyyy'), false)).toBe('2024-03-05');
    expect(formatNumber(43894, custom('d mmm yy'), true)).toBe('2024-03-05');
    expect(formatNumber(45356.5, custom('yyyy-mm-dd hh:mm'), false)).toBe('2024-03-05 12:00:00');
  });
});
