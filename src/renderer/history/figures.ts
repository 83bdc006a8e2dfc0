/**
 * The day's figures and each person's findings, from the one compliance
 * computation the report uses (features/report/build.ts): a scope's figures are
 * the report of its people, with every finding type, active people only.
 */
import { buildReport } from '../features/report/build.ts';
import { FINDING_TYPES, type ReportInput, type ReportOptions } from '../features/report/model.ts';
import { DEFAULT_SOON_DAYS } from '../app/soon-window.ts';
import type { ScopeFigures } from './rows.ts';

/** The "soon" window of the warnings the history counts (the report's default). */
export const HISTORY_SOON_DAYS = DEFAULT_SOON_DAYS;

export function historyOptions(today: string, statuses: readonly string[] = ['Active']): ReportOptions {
  return { today, soonDays: HISTORY_SOON_DAYS, categoryid: null, statuses, findingTypes: [...FINDING_TYPES] };
}

/** "Expired|credential:5": one finding of a person, as the history compares them. */
export const findingKey = (f: { type: string; itemKey: string }): string => `${f.type}|${f.itemKey}`;

/** Every person's findings on `today`, whatever their status, by userid. */
export function findingsByPerson(input: ReportInput, today: string): Map<number, string[]> {
  const statuses = [...new Set(input.people.map((p) => p.status))];
  const report = buildReport(input, historyOptions(today, statuses));
  const out = new Map<number, string[]>();
  for (const section of report.sections)
    for (const row of section.rows) out.set(row.userid, row.findings.map(findingKey).sort());
  return out;
}

/**
 * The scopes figures are kept for: every site with people, and every scope a requirement names but a site or a
 * group the cache does not hold (`held`: its sites): a site no longer kept on this laptop gets no figures.
 */
export function scopesOf(input: ReportInput, held: ReadonlySet<number>): string[] {
  const sites = new Set(input.people.map((p) => `site:${p.siteid}`));
  const groups = new Set(input.groups.map((g) => `group:${g.groupid}`));
  const isHeld = (scope: string) =>
    scope.startsWith('site:')
      ? held.has(Number(scope.slice(5)))
      : !scope.startsWith('group:') || groups.has(scope);
  const required = new Set(input.requirements.map((r) => r.scope).filter(isHeld));
  return [...new Set([...sites, ...required])].sort();
}

/** Who is in a scope ("site:101", "group:12", "usertype:Driver"). */
export function inScope(input: ReportInput, scope: string): ReportInput['people'] {
  const [kind, value] = [scope.slice(0, scope.indexOf(':')), scope.slice(scope.indexOf(':') + 1)];
  if (kind === 'site') return input.people.filter((p) => String(p.siteid) === value);
  if (kind === 'usertype') return input.people.filter((p) => p.usertype === value);
  const members = new Set(input.memberships.filter((m) => String(m.groupid) === value).map((m) => m.userid));
  return input.people.filter((p) => members.has(p.userid));
}

export function figuresOf(input: ReportInput, scope: string, today: string): ScopeFigures {
  const report = buildReport({ ...input, people: inScope(input, scope) }, historyOptions(today));
  const findings: ScopeFigures['findings'] = {};
  for (const { type, findings: n } of report.findingsByType) if (n > 0) findings[type] = n;
  return { scope, people: report.people, compliant: report.compliant, findings };
}

export function dayFigures(input: ReportInput, today: string, held: ReadonlySet<number>): ScopeFigures[] {
  return scopesOf(input, held).map((scope) => figuresOf(input, scope, today));
}
