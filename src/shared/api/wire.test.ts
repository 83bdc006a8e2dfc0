import { describe, expect, it } from 'vitest';
import { schemas } from './wire.ts';

const group = (groupname: unknown) => schemas.group.safeParse({ groupid: 7, groupname });

describe('text as the platform sends it', () => {
  it('takes a number as its text, and null as no text', () => {
    expect(group(2024).data?.groupname).toBe('2024');
    expect(group(null).data?.groupname).toBe('');
  });

  it('takes a group name sent as false as no name, never as the text "false"', () => {
    expect(group(false).data?.groupname).toBe('');
  });

  it('refuses a name sent as true, an object or a list, as malformed', () => {
    for (const value of [true, { name: 'x' }, ['x']])
      expect(group(value).success, JSON.stringify(value)).toBe(false);
  });
});
