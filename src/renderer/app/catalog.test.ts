import { describe, expect, it } from 'vitest';
import {
  catalogNames,
  courseChoices,
  credentialChoices,
  credentialLabel,
  featureChoices,
  groupChoices,
  groupLabel,
} from './catalog.ts';
import type { CredentialRecord, GroupRecord, ModuleRecord } from '../../shared/records.ts';

const names = catalogNames(
  [
    { siteid: 1, sitename: 'North', loginpage: '' },
    { siteid: 2, sitename: 'East', loginpage: '' },
  ],
  [
    { categoryid: 5, siteid: 1, categoryname: 'Crews', groupcount: 2 },
    { categoryid: 6, siteid: 2, categoryname: 'Crews', groupcount: 1 },
  ],
);
const group = (groupid: number, siteid: number, categoryid: number, groupname: string): GroupRecord => ({
  groupid,
  siteid,
  categoryid,
  groupname,
  usercount: 0,
  accessusercount: 0,
});
const credential = (
  credentialid: number,
  credentialname: string,
  categoryname: string,
): CredentialRecord => ({
  credentialid,
  credentialname,
  categoryname,
  categoryid: 0,
  description: '',
  requiredstartdate: false,
  requiredexpirationdate: false,
  requiredcredentialnum: false,
  requirements: '',
  activeusercount: 0,
  inactiveusercount: 0,
});

describe('names with their context', () => {
  it('puts same-named groups under their own site and category, sorted', () => {
    const choices = groupChoices(
      [group(1, 1, 5, 'Operations'), group(3, 1, 5, 'Crane'), group(2, 2, 6, 'Operations')],
      names,
    );
    expect(choices).toEqual([
      { label: 'East · Crews', choices: [{ value: 2, label: 'Operations (East)' }] },
      {
        label: 'North · Crews',
        choices: [
          { value: 3, label: 'Crane (North)' },
          { value: 1, label: 'Operations (North)' },
        ],
      },
    ]);
  });

  it('names the site beside each group, so a chosen "Operations" still says which one it is', () => {
    const labels = groupChoices([group(1, 1, 5, 'Operations'), group(2, 2, 6, 'Operations')], names).flatMap(
      (g) => g.choices.map((c) => c.label),
    );
    expect(labels).toEqual(['Operations (East)', 'Operations (North)']);
  });

  it("offers only the chosen site's groups and courses when a site is chosen", () => {
    expect(groupChoices([group(1, 1, 5, 'Operations'), group(2, 2, 6, 'Operations')], names, 2)).toEqual([
      { label: 'East · Crews', choices: [{ value: 2, label: 'Operations (East)' }] },
    ]);
    const course = (courseid: number, siteid: number) => ({
      courseid,
      siteid,
      coursename: 'Induction',
      coursetype: 1,
      status: 'active',
    });
    expect(courseChoices([course(50, 1), course(60, 2)], names, 1)).toEqual([
      { label: 'North', choices: [{ value: 50, label: 'Induction (North)' }] },
    ]);
  });

  it('labels a group with its site and category in lists', () => {
    expect(groupLabel(group(1, 1, 5, 'Operations'), names)).toBe('Operations (North · Crews)');
    expect(groupLabel(group(9, 7, 0, 'Loose'), names)).toBe('Loose (a site not on this laptop)');
  });

  it('puts credentials under their category, sorted, and labels them with it', () => {
    const choices = credentialChoices([
      credential(1, 'Rigging', 'Safety'),
      credential(2, 'First aid', 'Medical'),
      credential(3, 'Rigging', 'Cranes'),
    ]);
    expect(choices.map((g) => g.label)).toEqual(['Cranes', 'Medical', 'Safety']);
    expect(credentialLabel(credential(1, 'Rigging', 'Safety'))).toBe('Rigging (Safety)');
  });

  it('tells apart the same-named credentials of two sites by the site of their category', () => {
    const withSites = catalogNames(
      [
        { siteid: 1, sitename: 'North', loginpage: '' },
        { siteid: 2, sitename: 'South', loginpage: '' },
      ],
      [],
      [
        { categoryid: 10, siteid: 1, categoryname: 'Safety', credentialcount: 1 },
        { categoryid: 20, siteid: 2, categoryname: 'Safety', credentialcount: 1 },
      ],
    );
    const choices = credentialChoices(
      [
        { ...credential(1, 'Rigging', 'Safety'), categoryid: 10 },
        { ...credential(2, 'Rigging', 'Safety'), categoryid: 20 },
      ],
      withSites,
    );
    expect(choices).toEqual([
      { label: 'Safety · North', choices: [{ value: 1, label: 'Rigging (Safety · North)' }] },
      { label: 'Safety · South', choices: [{ value: 2, label: 'Rigging (Safety · South)' }] },
    ]);
    expect(
      credentialChoices(
        [
          { ...credential(1, 'Rigging', 'Safety'), categoryid: 10 },
          { ...credential(2, 'Rigging', 'Safety'), categoryid: 20 },
        ],
        withSites,
        2,
      ),
    ).toEqual([{ label: 'Safety · South', choices: [{ value: 2, label: 'Rigging (Safety · South)' }] }]);
    expect(credentialLabel({ ...credential(2, 'Rigging', 'Safety'), categoryid: 20 }, withSites)).toBe(
      'Rigging (Safety · South)',
    );
  });

  it('offers a feature once and names the sites when not every site has it', () => {
    const m = (siteid: number, accessID: number, functionName: string): ModuleRecord => ({
      id: `${siteid}-${accessID}`,
      siteid,
      accessID,
      moduleName: 'Reports',
      functionName,
    });
    expect(featureChoices([m(1, 3, 'View'), m(2, 3, 'View'), m(1, 4, 'Edit')], names)).toEqual([
      {
        label: 'Reports',
        choices: [
          { value: 4, label: 'Edit (North only)' },
          { value: 3, label: 'View' },
        ],
      },
    ]);
  });
});
