/**
 * The whole report from its input and the coordinator's choices: the summary a
 * site manager reads on page 1, one section per group, and the per-credential
 * summary. Pure.
 */
import type { UserRecord } from '../../../shared/records.ts';
import { addDaysIso } from '../../../shared/dates.ts';
import { requiredOf } from '../requirements/model.ts';
import {
  bestExpirations,
  FINDING_TYPES,
  findingsOf,
  lookups,
  nameOf,
  NON_COMPLIANT,
  peopleInScope,
  sectionsOf,
  type FindingType,
  type ReportInput,
  type ReportLookups,
  type ReportOptions,
  type ReportRow,
  type ReportSection,
} from './model.ts';

export interface CredentialSummary {
  credential: string;
  holders: number;
  /** not expired (those expiring soon included): holders = valid + expired, shown as "Not expired" */
  valid: number;
  within30: number;
  within60: number;
  within90: number;
  expired: number;
  /** people in scope it is required of, and of those, who do not hold it */
  required: number;
  missing: number;
}

export interface ComplianceReport {
  hasRequirements: boolean;
  /** the finding types shown (Missing only when there are requirements) */
  findingTypes: FindingType[];
  people: number;
  compliant: number;
  sections: ReportSection[];
  findingsByType: { type: FindingType; findings: number; people: number }[];
  /** the credentials and courses with the most people affected, most first (at most 5) */
  mostAffected: { item: string; people: number }[];
  byCredential: CredentialSummary[];
}

const MOST_AFFECTED = 5;

function credentialSummaries(
  people: readonly UserRecord[],
  input: ReportInput,
  look: ReportLookups,
  today: string,
): CredentialSummary[] {
  const rows = new Map<number, CredentialSummary>();
  const row = (credentialid: number) => {
    let r = rows.get(credentialid);
    if (!r)
      rows.set(
        credentialid,
        (r = {
          credential: look.credentialName(credentialid),
          holders: 0,
          valid: 0,
          within30: 0,
          within60: 0,
          within90: 0,
          expired: 0,
          required: 0,
          missing: 0,
        }),
      );
    return r;
  };
  for (const person of people) {
    const best = bestExpirations(look.heldBy.get(person.userid) ?? []);
    for (const [credentialid, date] of best) {
      const r = row(credentialid);
      r.holders += 1;
      if (date && date < today) r.expired += 1;
      else r.valid += 1;
      if (date && date >= today && date <= addDaysIso(today, 30)) r.within30 += 1;
      else if (date > addDaysIso(today, 30) && date <= addDaysIso(today, 60)) r.within60 += 1;
      else if (date > addDaysIso(today, 60) && date <= addDaysIso(today, 90)) r.within90 += 1;
    }
    const groupids = (look.groupsOf.get(person.userid) ?? []).map((m) => m.groupid);
    for (const key of requiredOf(person, groupids, input.requirements).keys()) {
      if (!key.startsWith('credential:')) continue;
      const credentialid = Number(key.slice('credential:'.length));
      const r = row(credentialid);
      r.required += 1;
      if (!best.has(credentialid)) r.missing += 1;
    }
  }
  return [...rows.values()].sort((a, b) => a.credential.localeCompare(b.credential));
}

function findingTotals(rows: readonly ReportRow[], types: readonly FindingType[]) {
  const findingsByType = types.map((type) => ({
    type,
    findings: rows.reduce((n, r) => n + r.findings.filter((f) => f.type === type).length, 0),
    people: rows.filter((r) => r.findings.some((f) => f.type === type)).length,
  }));
  const affected = new Map<string, { item: string; people: number }>();
  for (const r of rows) {
    for (const key of new Set(r.findings.map((f) => f.itemKey))) {
      const item = r.findings.find((f) => f.itemKey === key)!.item;
      const entry = affected.get(key) ?? { item, people: 0 };
      entry.people += 1;
      affected.set(key, entry);
    }
  }
  const mostAffected = [...affected.values()]
    .sort((a, b) => b.people - a.people || a.item.localeCompare(b.item))
    .slice(0, MOST_AFFECTED);
  return { findingsByType, mostAffected };
}

export function buildReport(input: ReportInput, options: ReportOptions): ComplianceReport {
  const hasRequirements = input.requirements.length > 0;
  const types = FINDING_TYPES.filter(
    (t) => options.findingTypes.includes(t) && (t !== 'Missing' || hasRequirements),
  );
  const look = lookups(input);
  const people = peopleInScope(input.people, options.statuses);
  const rowOf = new Map<number, ReportRow>();
  for (const person of people) {
    const findings = findingsOf(person, input, look, options).filter((f) => types.includes(f.type));
    rowOf.set(person.userid, {
      userid: person.userid,
      person: nameOf(person),
      employeeid: person.employeeid,
      findings,
      compliant: !findings.some((f) => NON_COMPLIANT.includes(f.type)),
      alsoIn: [],
    });
  }
  const sections = sectionsOf(
    people,
    (p, alsoIn) => ({ ...rowOf.get(p.userid)!, alsoIn }),
    input,
    look,
    options.categoryid,
  );
  const rows = [...rowOf.values()];
  return {
    hasRequirements,
    findingTypes: types,
    people: people.length,
    compliant: rows.filter((r) => r.compliant).length,
    sections,
    ...findingTotals(rows, types),
    byCredential: credentialSummaries(people, input, look, options.today),
  };
}
