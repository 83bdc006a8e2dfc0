import { describe, expect, it } from 'vitest';
import { sparseTrendWords, trendOf } from './trend.ts';
import type { HistorySyncRow } from '../../history/rows.ts';

const sync = (seq: number, day: string, figures: [string, number, number][]): HistorySyncRow => ({
  seq,
  at: `${day}T12:00:00.000Z`,
  day,
  figures: figures.map(([scope, people, compliant]) => ({ scope, people, compliant, findings: {} })),
});

const SYNCS = [
  sync(1, '2026-03-01', [
    ['site:1', 10, 5],
    ['site:2', 4, 4],
    ['group:9', 3, 1],
  ]),
  sync(2, '2026-03-02', [
    ['site:1', 10, 6],
    ['site:2', 4, 2],
  ]),
  // two syncs on one day: the day is the last
  sync(3, '2026-03-04', [['site:1', 10, 1]]),
  sync(4, '2026-03-04', [['site:1', 10, 8]]),
];

describe('the compliance trend', () => {
  it('gives each day its % compliant per site, the last sync of a day counting, and no value on a day without a sync', () => {
    const trend = trendOf(SYNCS, [], 30, '2026-03-05', null);
    expect(trend.scopes).toEqual(['site:1', 'site:2']);
    expect(trend.days).toHaveLength(30);
    expect(trend.days.slice(-5)).toEqual([
      { day: '2026-03-01', percent: { 'site:1': 50, 'site:2': 100 } },
      { day: '2026-03-02', percent: { 'site:1': 60, 'site:2': 50 } },
      { day: '2026-03-03', percent: { 'site:1': null, 'site:2': null } },
      { day: '2026-03-04', percent: { 'site:1': 80, 'site:2': null } },
      { day: '2026-03-05', percent: { 'site:1': null, 'site:2': null } },
    ]);
  });

  it('draws only the chosen site, and only the days of the span', () => {
    const trend = trendOf(SYNCS, [], 30, '2026-04-01', 2);
    expect(trend.scopes).toEqual(['site:2']);
    expect(trend.days[0]!.day).toBe('2026-03-03');
    expect(trend.days.every((d) => d.percent['site:2'] === null)).toBe(true);
  });

  it('marks the days the requirements changed, not the day the history started', () => {
    const trend = trendOf(SYNCS, [{ seq: 1 }, { seq: 4 }], 30, '2026-03-05', null);
    expect(trend.requirementDays).toEqual(['2026-03-04']);
  });

  it('says in words when the period has one day synced, which a chart shows only as a dot', () => {
    const words = (day: string) => `the ${day}`;
    const one = trendOf(SYNCS.slice(0, 1), [], 30, '2026-03-05', null);
    expect(sparseTrendWords(one, words)).toBe(
      'One day synced in this period so far (the 2026-03-01): ' +
        'each day with a sync adds a point, and the days between syncs stay gaps.',
    );
    expect(sparseTrendWords(trendOf(SYNCS, [], 30, '2026-03-05', null), words)).toBeNull();
    // only the days inside the span count
    expect(sparseTrendWords(trendOf(SYNCS, [], 30, '2026-04-01', 1), words)).toContain('(the 2026-03-04)');
  });
});
