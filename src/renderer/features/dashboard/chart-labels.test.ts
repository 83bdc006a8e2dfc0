import { describe, expect, it } from 'vitest';
import { shortLabel } from './chart-labels.ts';

describe("a course's name on the overdue chart's axis", () => {
  // the ten courses with the most overdue training in the demo, as the dashboard listed them
  const courses = [
    'Manual Handling Part 2',
    'Workplace Safety Part 2',
    'Code of Conduct for Supervisors',
    'Emergency Evacuation',
    'Emergency Evacuation Refresher',
    'Cybersecurity Awareness Annual',
    'Cybersecurity Awareness for Supervisors',
    'Data Privacy for Supervisors',
    'Fire Extinguisher Use Annual',
    'Hazard Communication Introduction',
  ];

  it('tells courses of one topic apart: no two labels alike (it drew "Cybersecurity Aware…" twice)', () => {
    const labels = courses.map((c) => shortLabel(c));
    expect(new Set(labels).size).toBe(courses.length);
    expect(shortLabel('Cybersecurity Awareness Annual')).toBe('Cybersecurity … Annual');
    expect(shortLabel('Emergency Evacuation Refresher')).toBe('Emergency … Refresher');
  });

  it('keeps a name that fits whole, and a long one within the axis (26 characters)', () => {
    expect(shortLabel('Manual Handling Part 2')).toBe('Manual Handling Part 2');
    expect(shortLabel('Fire Extinguisher Use Annual')).toBe('Fire Extinguisher … Annual');
    for (const c of courses) expect(shortLabel(c).length, c).toBeLessThanOrEqual(26);
    expect(shortLabel('W'.repeat(200))).toBe(`${'W'.repeat(25)}…`);
  });

  it('never cuts inside a word when it can be avoided (it drew "Cybersecurit … Supervisors")', () => {
    expect(shortLabel('Cybersecurity Awareness for Supervisors')).toBe('Cybersecurity Awareness…');
    expect(shortLabel('Introduction to Workplace Harassment Prevention')).toBe('Introduction … Prevention');
    // every word of every label is a whole word of the name (an ellipsis only ends the label or stands alone)
    for (const c of [
      ...courses,
      'Cybersecurity Awareness for Supervisors',
      'Occupational Electrical Safety Qualifications',
    ]) {
      const whole = new Set(c.split(' '));
      for (const word of shortLabel(c).replace(/…$/, '').split(' '))
        if (word !== '…') expect(whole, `${word} of ${shortLabel(c)}`).toContain(word);
    }
  });

  it('cuts a single word longer than the room with the ellipsis at its end only', () => {
    expect(shortLabel('Pneumonoultramicroscopicsilicovolcanoconiosis Awareness')).toBe(
      'Pneumonoultramicroscopics…',
    );
    expect(shortLabel('Pneumonoultramicroscopicsilicovolcanoconiosis Awareness').length).toBe(26);
  });
});
