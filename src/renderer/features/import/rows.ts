/**
 * From spreadsheet rows to queued user creates and updates: map columns,
 * validate every row (clear per-row errors), match existing users by username
 * or employee id, and plan the ops. Pure.
 */
import type { EmailRecord, UserRecord } from '../../../shared/records.ts';
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';
import { newId } from '../../../shared/replay-queue/queue.ts';
import { looksLikeFormula } from '../../../shared/formula.ts';
import type { Sheet } from './parse.ts';

export const IMPORT_FIELDS = ['username', 'firstname', 'lastname', 'employeeid', 'status', 'email'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export type ColumnMapping = Partial<Record<ImportField, number>>;

export const FIELD_LABELS: Record<ImportField, string> = {
  username: 'Username',
  firstname: 'First name',
  lastname: 'Last name',
  employeeid: 'Employee ID',
  status: 'Status',
  email: 'E-mail',
};

const ALIASES: Record<ImportField, string[]> = {
  username: ['username', 'user name', 'login', 'user'],
  firstname: ['firstname', 'first name', 'first', 'given name'],
  lastname: ['lastname', 'last name', 'last', 'surname', 'family name'],
  employeeid: ['employeeid', 'employee id', 'employee number', 'emp id', 'badge'],
  status: ['status', 'user status'],
  email: ['email', 'e-mail', 'email address', 'e-mail address'],
};

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Guess which column holds which field from the header names. */
export function guessMapping(headers: readonly string[]): ColumnMapping {
  const mapping: ColumnMapping = {};
  for (const field of IMPORT_FIELDS) {
    const aliases = ALIASES[field].map(squash);
    const index = headers.findIndex((h) => aliases.includes(squash(h)));
    if (index >= 0) mapping[field] = index;
  }
  return mapping;
}

export const KNOWN_STATUSES = ['Active', 'Offline', 'Inactive'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type ImportRow = { rowNumber: number; values: Partial<Record<ImportField, string>> };
export type RowPlan =
  | { rowNumber: number; action: 'create'; values: ImportRow['values'] }
  | { rowNumber: number; action: 'update'; user: UserRecord; changes: Partial<Record<ImportField, string>> }
  | { rowNumber: number; action: 'unchanged'; user: UserRecord }
  | { rowNumber: number; action: 'error'; errors: string[] };

export function rowsOf(sheet: Sheet, mapping: ColumnMapping): ImportRow[] {
  return sheet.rows.map((row) => {
    const values: ImportRow['values'] = {};
    for (const field of IMPORT_FIELDS) {
      const column = mapping[field];
      if (column !== undefined) values[field] = (row.cells[column] ?? '').replace(/[\t\r\n]+/g, ' ').trim();
    }
    return { rowNumber: row.rowNumber, values };
  });
}

export function normalizeStatus(value: string): string | null {
  return KNOWN_STATUSES.find((s) => s.toLowerCase() === value.toLowerCase()) ?? null;
}

/** The cached e-mail addresses of each user, lower-cased. */
export type EmailsByUser = ReadonlyMap<number, ReadonlySet<string>>;

export function emailsByUser(emails: readonly EmailRecord[]): EmailsByUser {
  const out = new Map<number, Set<string>>();
  for (const e of emails) out.set(e.userid, (out.get(e.userid) ?? new Set()).add(e.email.toLowerCase()));
  return out;
}

/**
 * Match rows to cached users by username first, then employee id, and decide
 * create / update / unchanged / error. An existing user's e-mail address that
 * the cache does not know for them is a change too: it is added.
 */
export function planImport(rows: readonly ImportRow[], users: readonly UserRecord[], siteid: number, emails: EmailsByUser = new Map()): RowPlan[] {
  const byUsername = new Map(users.filter((u) => u.siteid === siteid).map((u) => [u.username.toLowerCase(), u]));
  const byEmployeeId = new Map(users.filter((u) => u.siteid === siteid && u.employeeid).map((u) => [u.employeeid.toLowerCase(), u]));
  const seen = new Map<string, number>();
  return rows.map((row): RowPlan => {
    const v = row.values;
    const errors: string[] = [];
    for (const field of IMPORT_FIELDS) {
      if (v[field] && looksLikeFormula(v[field])) errors.push(`${FIELD_LABELS[field]} looks like a spreadsheet formula (it starts with = + - or @), so it is refused.`);
      if (v[field] && v[field].length > 200) errors.push(`${FIELD_LABELS[field]} is longer than 200 characters.`);
    }
    if (v.status && !normalizeStatus(v.status)) errors.push(`Status "${v.status}" is not one of ${KNOWN_STATUSES.join(', ')}.`);
    if (v.email && !EMAIL.test(v.email)) errors.push(`"${v.email}" is not an e-mail address.`);
    const key = (v.username || v.employeeid || '').toLowerCase();
    if (!key) errors.push('Neither a username nor an employee ID: the row cannot be matched or created.');
    else if (seen.has(key)) errors.push(`Same person as row ${seen.get(key)}.`);
    else seen.set(key, row.rowNumber);
    const user = (v.username && byUsername.get(v.username.toLowerCase())) || (v.employeeid && byEmployeeId.get(v.employeeid.toLowerCase())) || undefined;
    if (!user) {
      if (!v.username) errors.push('A new user needs a username.');
      if (!v.firstname) errors.push('A new user needs a first name.');
      if (!v.lastname) errors.push('A new user needs a last name.');
    }
    if (errors.length > 0) return { rowNumber: row.rowNumber, action: 'error', errors };
    if (!user) return { rowNumber: row.rowNumber, action: 'create', values: v };
    const changes: Partial<Record<ImportField, string>> = {};
    for (const field of ['username', 'firstname', 'lastname', 'employeeid', 'status'] as const) {
      const next = field === 'status' && v.status ? normalizeStatus(v.status)! : v[field];
      if (next && next !== user[field]) changes[field] = next;
    }
    if (v.email && !emails.get(user.userid)?.has(v.email.toLowerCase())) changes.email = v.email;
    return Object.keys(changes).length === 0 ? { rowNumber: row.rowNumber, action: 'unchanged', user } : { rowNumber: row.rowNumber, action: 'update', user, changes };
  });
}

/** The ops of a plan: an update per changed user and an e-mail added; a create per new user, with its e-mail waiting for the new id. */
export function draftsOf(plans: readonly RowPlan[], siteid: number): OpDraft[] {
  const drafts: OpDraft[] = [];
  for (const plan of plans) {
    if (plan.action === 'update') {
      const { email, ...fields } = plan.changes;
      if (Object.keys(fields).length > 0) {
        const base = Object.fromEntries(Object.keys(fields).map((f) => [f, plan.user[f as keyof UserRecord] as string]));
        drafts.push({ op: { kind: 'user.update', userid: plan.user.userid, changes: fields }, base, summary: `Update ${plan.user.username} (row ${plan.rowNumber})` });
      }
      if (email) drafts.push({ op: { kind: 'email.add', userid: plan.user.userid, email }, summary: `Add e-mail ${email} to ${plan.user.username} (row ${plan.rowNumber})` });
    } else if (plan.action === 'create') {
      const v = plan.values;
      const id = newId();
      const targetKey = `user:new:${siteid}:${v.username!.toLowerCase()}`;
      drafts.push({
        id,
        targetKey,
        op: {
          kind: 'user.create',
          siteid,
          fields: {
            username: v.username!, firstname: v.firstname!, lastname: v.lastname!,
            ...(v.employeeid ? { employeeid: v.employeeid } : {}),
            ...(v.status ? { status: normalizeStatus(v.status)! } : {}),
          },
        },
        summary: `Create ${v.username} (row ${plan.rowNumber})`,
      });
      if (v.email) {
        drafts.push({ op: { kind: 'email.add', userid: 0, email: v.email }, targetKey, dependsOn: [id], bindings: [{ fromOp: id, field: 'userid' }], summary: `Add e-mail ${v.email} to ${v.username}` });
      }
    }
  }
  return drafts;
}
