/**
 * A record the views need but the cache does not hold (a site not kept, a
 * group or credential removed since a requirement was written) is named by
 * what it is: "a site not on this laptop", never "Site 55". A cached course
 * whose name came empty is "a course with no name", never "Course 88".
 */
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { CourseRecord, CredentialRecord, ModuleRecord, SiteRecord } from '../../shared/records.ts';
import { catalogNames, courseChoices, featureLabel, siteName } from './catalog.ts';
import { NO_NAME, NOT_ON_THIS_LAPTOP as NOT_HERE } from './words.ts';
import { requirementsTable, type RequirementCatalog } from '../features/requirements/io.ts';
import { requirementRow } from '../features/requirements/model.ts';
import { lookups, type ReportInput } from '../features/report/model.ts';
import { loadReport } from '../features/report/queries.ts';
import { freshDb, user } from '../testing/fixtures.ts';

const names = catalogNames([{ siteid: 1, sitename: 'Riverside Plant' } as SiteRecord], []);
const NO_ID = /\d/;

describe('names in pickers and labels', () => {
  it('a site not kept is "a site not on this laptop"', () => {
    expect(siteName(55, names)).toBe(NOT_HERE.site);
    expect(
      featureLabel(
        { accessID: 3, siteid: 55, moduleName: 'Reports', functionName: 'View' } as ModuleRecord,
        names,
      ),
    ).toBe(`Reports: View (${NOT_HERE.site})`);
  });

  it('a course whose name came empty is "a course with no name", under its site', () => {
    const choices = courseChoices([{ courseid: 88, siteid: 1, coursename: '' } as CourseRecord], names);
    expect(choices).toEqual([
      { label: 'Riverside Plant', choices: [{ value: 88, label: `${NO_NAME.course} (Riverside Plant)` }] },
    ]);
  });
});

describe('requirements exported with records no longer on this laptop', () => {
  const catalog: RequirementCatalog = {
    sites: [],
    categories: [],
    groups: [],
    credentialCategories: [],
    credentials: [],
    courses: [],
  };

  it('names the site, group, credential and course in words, with no id', () => {
    const table = requirementsTable(
      [requirementRow('site:55', 'course:88'), requirementRow('group:99', 'credential:77')],
      catalog,
    );
    expect(table.slice(1)).toEqual([
      ['', 'Group', NOT_HERE.group, 'Credential', NOT_HERE.credential],
      [NOT_HERE.site, 'Everyone at the site', '', 'Course', NOT_HERE.course],
    ]);
    for (const cell of table.flat()) expect(cell).not.toMatch(NO_ID);
  });
});

describe('the compliance report', () => {
  it('names a required credential or course not on this laptop in words', () => {
    const input = {
      credentials: [] as CredentialRecord[],
      courses: [] as CourseRecord[],
      memberships: [],
      assignments: [],
      training: [],
    } as unknown as ReportInput;
    const look = lookups(input);
    expect(look.credentialName(77)).toBe(NOT_HERE.credential);
    expect(look.courseName(88)).toBe(NOT_HERE.course);
  });

  it('titles a report of a group no longer on this laptop, or of a site not kept, in words', async () => {
    const db = freshDb();
    await db.users.put(user(1, { siteid: 55 }));
    expect((await loadReport(db, { kind: 'group', groupid: 99 })).scopeLabel).toBe(NOT_HERE.group);
    expect((await loadReport(db, { kind: 'site', siteid: 55 })).scopeLabel).toBe(NOT_HERE.site);
  });
});
