/**
 * The compliance report of a site, a group or a selection of people, from the
 * cache: credentials expired and expiring within 30/60/90 days, credentials a
 * person lacks that others in their group hold, training overdue and due
 * within 30 days, with totals per group. Pure.
 *
 * A person in several groups appears under each; the overall totals count
 * each person's findings once. "Others in their group" are the group's members
 * within the report (a site's report holds all of them).
 */
import type { CredentialAssignmentRecord, CredentialRecord, GroupMemberRecord, GroupRecord, TrainingAssignmentRecord, UserRecord } from '../../../shared/records.ts';
import { addDaysIso } from '../../../shared/dates.ts';
import { trainingState } from '../../app/compliance.ts';

export const ISSUES = ['Expired', 'Expires within 30 days', 'Expires within 60 days', 'Expires within 90 days', 'Missing', 'Training overdue', 'Training due soon'] as const;
export type Issue = (typeof ISSUES)[number];

const TRAINING_SOON_DAYS = 30;
const NO_GROUP = '(no group)';

export interface ReportInput {
  people: readonly UserRecord[];
  memberships: readonly GroupMemberRecord[];
  groups: readonly GroupRecord[];
  credentials: readonly CredentialRecord[];
  assignments: readonly CredentialAssignmentRecord[];
  training: readonly TrainingAssignmentRecord[];
  today: string;
}

export interface ReportLine {
  group: string;
  person: string;
  userid: number;
  issue: Issue;
  /** the credential or course */
  item: string;
  /** the expiration or due date (ISO), '' for a missing credential */
  date: string;
}

export type Totals = { group: string; people: number } & Record<Issue, number>;

export interface ComplianceReport {
  lines: ReportLine[];
  totals: Totals[];
  overall: Totals;
}

const nameOf = (u: UserRecord) => `${u.lastname}, ${u.firstname}`.replace(/^, |, $/g, '') || u.username;

function emptyTotals(group: string): Totals {
  const t = { group, people: 0 } as Totals;
  for (const issue of ISSUES) t[issue] = 0;
  return t;
}

function expiryIssue(expirationIso: string, today: string): Issue | null {
  if (!expirationIso) return null;
  if (expirationIso < today) return 'Expired';
  if (expirationIso <= addDaysIso(today, 30)) return 'Expires within 30 days';
  if (expirationIso <= addDaysIso(today, 60)) return 'Expires within 60 days';
  if (expirationIso <= addDaysIso(today, 90)) return 'Expires within 90 days';
  return null;
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const list = out.get(key(item));
    if (list) list.push(item);
    else out.set(key(item), [item]);
  }
  return out;
}

export function buildReport(input: ReportInput): ComplianceReport {
  const { today } = input;
  const credentialName = new Map(input.credentials.map((c) => [c.credentialid, c.credentialname]));
  const groupName = new Map(input.groups.map((g) => [g.groupid, g.groupname]));
  const inScope = new Set(input.people.map((p) => p.userid));
  const heldBy = groupBy(input.assignments, (a) => a.userid);
  const trainingOf = groupBy(input.training, (t) => t.userid);

  // the findings of each person, whatever their group
  const own = new Map<number, { issue: Issue; item: string; date: string }[]>();
  for (const person of input.people) {
    const found: { issue: Issue; item: string; date: string }[] = [];
    for (const a of heldBy.get(person.userid) ?? []) {
      const issue = expiryIssue(a.expirationIso, today);
      if (issue) found.push({ issue, item: credentialName.get(a.credentialid) ?? `Credential ${a.credentialid}`, date: a.expirationIso });
    }
    for (const t of trainingOf.get(person.userid) ?? []) {
      const state = trainingState(t, today, TRAINING_SOON_DAYS);
      if (state === 'overdue' || state === 'due-soon') found.push({ issue: state === 'overdue' ? 'Training overdue' : 'Training due soon', item: t.course_name || `Course ${t.courseid}`, date: t.dueIso });
    }
    own.set(person.userid, found);
  }

  // groups of the people in scope (members outside the report do not count as "others")
  const membersOf = groupBy(
    input.memberships.filter((m) => inScope.has(m.userid)),
    (m) => m.groupid,
  );
  const grouped = new Set<number>();
  const sections: { group: string; people: UserRecord[] }[] = [];
  const byId = new Map(input.people.map((p) => [p.userid, p]));
  for (const [groupid, members] of [...membersOf.entries()].sort((a, b) => (groupName.get(a[0]) ?? '').localeCompare(groupName.get(b[0]) ?? ''))) {
    const people = members.map((m) => byId.get(m.userid)!).filter(Boolean);
    for (const p of people) grouped.add(p.userid);
    sections.push({ group: groupName.get(groupid) ?? `Group ${groupid}`, people });
  }
  const ungrouped = input.people.filter((p) => !grouped.has(p.userid));
  if (ungrouped.length > 0) sections.push({ group: NO_GROUP, people: ungrouped });

  const lines: ReportLine[] = [];
  const totals: Totals[] = [];
  const overall = emptyTotals('All');
  overall.people = input.people.length;
  const missingCounted = new Set<string>();
  for (const section of sections) {
    const t = emptyTotals(section.group);
    t.people = section.people.length;
    const people = [...section.people].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
    // credentials someone in the group holds: the others lack them
    const heldInGroup = new Set(section.group === NO_GROUP ? [] : people.flatMap((p) => (heldBy.get(p.userid) ?? []).map((a) => a.credentialid)));
    for (const person of people) {
      for (const f of own.get(person.userid) ?? []) {
        lines.push({ group: section.group, person: nameOf(person), userid: person.userid, ...f });
        t[f.issue] += 1;
      }
      const mine = new Set((heldBy.get(person.userid) ?? []).map((a) => a.credentialid));
      const missing = [...heldInGroup].filter((c) => !mine.has(c)).map((c) => credentialName.get(c) ?? `Credential ${c}`).sort();
      for (const item of missing) {
        lines.push({ group: section.group, person: nameOf(person), userid: person.userid, issue: 'Missing', item, date: '' });
        t.Missing += 1;
        const key = `${person.userid}:${item}`;
        if (!missingCounted.has(key)) {
          missingCounted.add(key);
          overall.Missing += 1;
        }
      }
    }
    totals.push(t);
  }
  for (const found of own.values()) for (const f of found) overall[f.issue] += 1;
  return { lines, totals, overall };
}
