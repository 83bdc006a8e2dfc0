import { describe, expect, it } from 'vitest';
import {
  describeCounts,
  keepsEarlierFigure,
  megabytes,
  partOfFigure,
  PART_PREFIX,
  scaleParts,
  strayRecords,
} from './scale-lib.ts';

describe('the parts of the scale benchmark', () => {
  it('runs every part when none is named, and the named ones in their running order', () => {
    expect(scaleParts(undefined)).toEqual(['one', 'remove', 'all']);
    expect(scaleParts('')).toEqual(['one', 'remove', 'all']);
    expect(scaleParts('all, one')).toEqual(['one', 'all']);
    expect(scaleParts('remove')).toEqual(['remove']);
    expect(scaleParts('views,all')).toEqual(['all', 'views']);
  });

  it('refuses a part it does not know, naming the known ones', () => {
    expect(() => scaleParts('one,everything')).toThrow(
      'unknown part(s) everything; the parts are one, remove, all, views',
    );
  });

  it("keeps an earlier run's figures of the parts not run now, and only those", () => {
    const one = { name: `${PART_PREFIX.one}: first sync` };
    const all = { name: `${PART_PREFIX.all}: full sync` };
    expect(partOfFigure(one.name)).toBe('one');
    expect(keepsEarlierFigure(['all'], one)).toBe(true);
    expect(keepsEarlierFigure(['one', 'all'], one)).toBe(false);
    expect(keepsEarlierFigure(['one'], all)).toBe(true);
    // the views measured again on a kept cache are figures of their own: the full sync's stay
    expect(partOfFigure(`${PART_PREFIX.views}: cold start`)).toBe('views');
    expect(keepsEarlierFigure(['views'], all)).toBe(true);
    // an error line, or a figure named otherwise, goes with the new run
    expect(keepsEarlierFigure(['one'], { name: 'error' })).toBe(false);
    expect(keepsEarlierFigure(['one'], {})).toBe(false);
  });
});

describe('records of the cache that are not the kept sites', () => {
  const server = { users: new Set(['1', '2']), credentialAssignments: new Set(['7-1', '7-2']) };

  it('counts none when the cache holds exactly the kept sites’ records (numeric and string keys alike)', () => {
    const count = strayRecords({ users: [1, 2], credentialAssignments: ['7-1', '7-2'] }, server);
    expect(count).toMatchObject({ strayTotal: 0, missingTotal: 0, keptTotal: 4, examples: [] });
  });

  it('counts another site’s records the cache holds, per collection, with examples', () => {
    const count = strayRecords(
      { users: [1, 2, 3], credentialAssignments: ['7-1', '7-2', '8-3', '9-3'] },
      server,
    );
    expect(count.stray).toEqual({ users: 1, credentialAssignments: 2 });
    expect(count.strayTotal).toBe(3);
    expect(count.examples).toEqual(['users 3', 'credentialAssignments 8-3', 'credentialAssignments 9-3']);
  });

  it('counts the kept sites’ records the cache lacks, apart from the strays', () => {
    const count = strayRecords({ users: [1, 5] }, server);
    expect(count.missing).toEqual({ users: 1, credentialAssignments: 2 });
    expect(count.missingTotal).toBe(3);
    expect(count.strayTotal).toBe(1);
  });
});

describe('the notes', () => {
  it('lists the non-zero counts, most first', () => {
    expect(describeCounts({ users: 2, emails: 0, groups: 1_500 })).toBe('groups 1,500, users 2');
    expect(describeCounts({ users: 0 })).toBe('none');
  });

  it('gives megabytes with one decimal', () => {
    expect(megabytes(66.5 * 1024 * 1024)).toBe(66.5);
    expect(megabytes(0)).toBe(0);
  });
});
