/**
 * The report's findings as lists of people to act on: for a finding type (and,
 * when chosen, one credential or course), the people the report finds, once
 * each however many groups list them, with the bulk action that applies
 * (renew or assign the credential, a new due date for the course). Pure: every
 * number the picker shows is the length of the list it opens, and the report's
 * "Findings by type" people count is the same number.
 */
import type { BulkPreset } from '../../components/SelectionBar.tsx';
import type { ComplianceReport } from './build.ts';
import type { Finding, FindingType, ReportRow } from './model.ts';

/** One person of a findings list: their findings of the chosen kind, and the report's groups they are in. */
export interface FindingPerson {
  userid: number;
  person: string;
  employeeid: string;
  groups: string[];
  findings: Finding[];
}

export interface FindingItemChoice {
  itemKey: string;
  item: string;
  people: number;
}

export interface FindingChoice {
  type: FindingType;
  people: number;
  /** the credentials or courses of this finding type, the most people first */
  items: FindingItemChoice[];
}

/** Each person of the report once, with the groups (sections) listing them, by name. */
function distinctRows(report: ComplianceReport): { row: ReportRow; groups: string[] }[] {
  const byId = new Map<number, { row: ReportRow; groups: string[] }>();
  for (const section of report.sections) {
    for (const row of section.rows) {
      const known = byId.get(row.userid);
      if (known) known.groups.push(section.group);
      else byId.set(row.userid, { row, groups: [section.group] });
    }
  }
  return [...byId.values()].sort(
    (a, b) => a.row.person.localeCompare(b.row.person) || a.row.userid - b.row.userid,
  );
}

const matching = (type: FindingType, itemKey: string | null) => (f: Finding) =>
  f.type === type && (itemKey === null || f.itemKey === itemKey);

/** The people with a finding of this type (of this credential or course when given), by name. */
export function peopleWithFinding(
  report: ComplianceReport,
  type: FindingType,
  itemKey: string | null,
): FindingPerson[] {
  const out: FindingPerson[] = [];
  for (const { row, groups } of distinctRows(report)) {
    const findings = row.findings.filter(matching(type, itemKey));
    if (findings.length > 0)
      out.push({ userid: row.userid, person: row.person, employeeid: row.employeeid, groups, findings });
  }
  return out;
}

/** What the findings picker offers: each finding type the report shows, with its people and its items. */
export function findingChoices(report: ComplianceReport): FindingChoice[] {
  const rows = distinctRows(report).map((r) => r.row);
  return report.findingTypes.map((type) => {
    const items = new Map<string, FindingItemChoice>();
    let people = 0;
    for (const row of rows) {
      const found = row.findings.filter(matching(type, null));
      if (found.length > 0) people += 1;
      for (const key of new Set(found.map((f) => f.itemKey))) {
        const item = items.get(key) ?? {
          itemKey: key,
          item: found.find((f) => f.itemKey === key)!.item,
          people: 0,
        };
        item.people += 1;
        items.set(key, item);
      }
    }
    return {
      type,
      people,
      items: [...items.values()].sort((a, b) => b.people - a.people || a.item.localeCompare(b.item)),
    };
  });
}

const CREDENTIAL_FINDINGS: readonly FindingType[] = ['Expired', 'Expires soon'];

/**
 * The bulk action a findings list starts on: a credential's findings renew it (or
 * assign it, when missing); a course's set a new due date (or assign it). A list of
 * several credentials starts on the action and leaves the credential to choose;
 * "Missing" of every item starts on nothing (credentials and courses mixed).
 */
export function findingPreset(type: FindingType, itemKey: string | null): BulkPreset | undefined {
  if (itemKey !== null) {
    const [kind, id] = itemKey.split(':');
    const choice = Number(id);
    if (!Number.isInteger(choice)) return undefined;
    return kind === 'credential'
      ? { type: 'credential', choice }
      : kind === 'course'
        ? { type: 'training', choice }
        : undefined;
  }
  if (type === 'Missing') return undefined;
  return CREDENTIAL_FINDINGS.includes(type) ? { type: 'credential' } : { type: 'training' };
}
