import { describe, expect, it } from 'vitest';
import type {
  CourseRecord,
  CredentialCategoryRecord,
  CredentialRecord,
  GroupRecord,
  ProfileCategoryRecord,
  SiteRecord,
} from '../../../shared/records.ts';
import { readRequirements, requirementsTable, type RequirementCatalog } from './io.ts';
import { requirementRow } from './model.ts';

const catalog: RequirementCatalog = {
  sites: [
    { siteid: 1, sitename: 'Riverside Plant' } as SiteRecord,
    { siteid: 2, sitename: 'North Yard' } as SiteRecord,
  ],
  categories: [
    { categoryid: 7, siteid: 1, categoryname: 'Role' } as ProfileCategoryRecord,
    { categoryid: 8, siteid: 1, categoryname: 'Shift' } as ProfileCategoryRecord,
  ],
  groups: [
    { groupid: 12, siteid: 1, categoryid: 7, groupname: 'Driver' } as GroupRecord,
    { groupid: 13, siteid: 1, categoryid: 8, groupname: 'Day' } as GroupRecord,
    { groupid: 14, siteid: 1, categoryid: 7, groupname: 'Day' } as GroupRecord,
  ],
  credentialCategories: [{ categoryid: 3, siteid: 1 } as CredentialCategoryRecord],
  credentials: [{ credentialid: 5, credentialname: 'Forklift', categoryid: 3 } as CredentialRecord],
  courses: [{ courseid: 9, siteid: 1, coursename: 'Safety basics' } as CourseRecord],
};
const rows = (...lines: string[][]) => lines.map((cells, i) => ({ rowNumber: i + 1, cells }));
const HEADER = ['Site', 'Applies to', 'Group or user type', 'Kind', 'Credential or course'];

describe('requirements written as a table', () => {
  it('names everything in words: site, "Category: Group", user type, credential or course', () => {
    const table = requirementsTable(
      [
        requirementRow('group:12', 'credential:5'),
        requirementRow('usertype:Supervisor', 'course:9'),
        requirementRow('site:1', 'course:9'),
      ],
      catalog,
    );
    expect(table).toEqual([
      HEADER,
      ['', 'User type', 'Supervisor', 'Course', 'Safety basics'],
      ['Riverside Plant', 'Everyone at the site', '', 'Course', 'Safety basics'],
      ['Riverside Plant', 'Group', 'Role: Driver', 'Credential', 'Forklift'],
    ]);
  });

  it('reads back as the same requirements', () => {
    const stored = [
      requirementRow('group:12', 'credential:5'),
      requirementRow('usertype:Supervisor', 'course:9'),
      requirementRow('site:1', 'course:9'),
    ];
    const table = requirementsTable(stored, catalog).map((cells, i) => ({ rowNumber: i + 1, cells }));
    const read = readRequirements(table, catalog);
    expect(read.ok && [...read.rows].sort((a, b) => a.id.localeCompare(b.id))).toEqual(
      [...stored].sort((a, b) => a.id.localeCompare(b.id)),
    );
  });
});

describe('reading requirements from a spreadsheet', () => {
  it('matches names without regard to case or spacing, a group by its name alone when only one group has it', () => {
    const read = readRequirements(
      rows(HEADER, ['riverside plant', 'group', ' driver ', 'credential', 'FORKLIFT']),
      catalog,
    );
    expect(read).toEqual({ ok: true, rows: [requirementRow('group:12', 'credential:5')] });
  });

  it('says which rows do not read and why, and adds nothing', () => {
    const read = readRequirements(
      rows(
        HEADER,
        ['Riverside Plant', 'Group', 'Role: Drivr', 'Credential', 'Forklift'],
        ['Riverside Plant', 'Group', 'Day', 'Course', 'Safety basics'],
        ['Riverside Plant', 'Group', 'Role: Driver', 'Credential', 'Crane'],
        ['Mars', 'Everyone at the site', '', 'Course', 'Safety basics'],
        ['Riverside Plant', 'Group', 'Role: Driver', 'Licence', 'Forklift'],
      ),
      catalog,
    );
    expect(read).toEqual({
      ok: false,
      errors: [
        'Row 2: no group “Role: Drivr” at Riverside Plant.',
        'Row 3: “Day” names 2 groups at Riverside Plant: write it as “Category: Group”.',
        'Row 4: no credential is called “Crane”.',
        'Row 5: no site is called “Mars”.',
        'Row 6: “Kind” must be “Credential” or “Course”, not “Licence”.',
      ],
    });
  });

  it('refuses a file without the header row, naming the columns it needs', () => {
    const read = readRequirements(rows(['Name', 'Thing']), catalog);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.errors[0]).toContain('“Applies to”');
  });
});
