import { describe, expect, it } from 'vitest';
import type { GroupRecord, ProfileCategoryRecord } from '../../../shared/records.ts';
import { requirementRow } from '../requirements/model.ts';
import { defaultCategory } from './choices.ts';

const category = (categoryid: number, categoryname: string) =>
  ({ categoryid, categoryname, siteid: 1 }) as ProfileCategoryRecord;
const group = (groupid: number, categoryid: number) =>
  ({ groupid, categoryid, siteid: 1, groupname: `G${groupid}` }) as GroupRecord;
const categories = [category(1, 'Shift'), category(2, 'Department'), category(3, 'Role')];
const groups = [group(10, 1), group(20, 2), group(30, 3), group(31, 3)];

describe('the category a report groups by when none is chosen', () => {
  it('is the first by name when no requirement is set', () => {
    expect(defaultCategory(categories, groups, [], null)).toBe(2);
  });

  it('is the one whose groups carry the most requirements', () => {
    const rows = [
      requirementRow('group:30', 'credential:1'),
      requirementRow('group:31', 'credential:1'),
      requirementRow('group:10', 'credential:1'),
      requirementRow('site:1', 'course:2'),
    ];
    expect(defaultCategory(categories, groups, rows, null)).toBe(3);
  });

  it("is a group report's own category", () => {
    expect(defaultCategory(categories, groups, [], 10)).toBe(1);
  });

  it('is none when the site has no category', () => {
    expect(defaultCategory([], groups, [], null)).toBeNull();
  });
});
