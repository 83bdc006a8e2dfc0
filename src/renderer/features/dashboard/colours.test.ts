import { describe, expect, it } from 'vitest';
import { statusColour } from './colours.ts';

describe('status colours', () => {
  it('gives each known status its own colour whatever its case', () => {
    const colours = ['Active', 'Inactive', 'Offline', ''].map(statusColour);
    expect(new Set(colours).size).toBe(4);
    expect(statusColour('ACTIVE')).toBe(statusColour('Active'));
  });

  it('keeps an unknown status on one colour, not on its rank', () => {
    expect(statusColour('Suspended')).toBe(statusColour('Suspended'));
    expect(['Active', 'Inactive', 'Offline', ''].map(statusColour)).not.toContain(statusColour('Suspended'));
  });
});
