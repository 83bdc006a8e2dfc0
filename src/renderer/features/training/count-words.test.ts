import { describe, expect, it } from 'vitest';
import { traineesCount } from './count-words.ts';

describe('the count line of a training list', () => {
  it('counts the people of one course', () => {
    expect(traineesCount(40, 40, true)).toBe('40 people');
    expect(traineesCount(1, 1, true)).toBe('1 person');
  });

  it('counts assignments over every course, as the dashboard figure does, not courses', () => {
    expect(traineesCount(72, 72, false)).toBe('72 training assignments');
    expect(traineesCount(1, 1, false)).toBe('1 training assignment');
    expect(traineesCount(500, 1234, false)).toBe('500 of 1,234 training assignments (scroll for more)');
  });
});
