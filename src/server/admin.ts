/**
 * The admin API (`/__admin/...`, only with `admin: true`, loopback only): reset
 * the data, change faults, change a record behind the client's back, and a
 * compact snapshot of the state that replay tests compare against.
 */
import { z } from 'zod';
import { toIsoDate } from '../shared/dates.ts';
import type { Store, SqlValue } from './store.ts';

export interface Snapshot {
  users: {
    userid: number;
    siteid: number;
    username: string;
    firstname: string;
    lastname: string;
    employeeid: string;
    status: string;
    usertype: string;
  }[];
  /** [groupid, userid] */
  groupAccess: [number, number][];
  /** [siteid, accessID, userid] */
  moduleAccess: [number, number, number][];
  credentialAssignments: {
    id: string;
    credentialid: number;
    userid: number;
    startdate: string;
    expirationdate: string;
    credentialnumber: string;
    status: string;
    notes: string;
    attachmentcount: number;
  }[];
  trainingAssignments: {
    transcriptid: number;
    userid: number;
    courseid: number;
    course_status: string;
    startdate: string;
    duedate: string;
    assignment_method: string;
  }[];
  emails: { emailid: number; userid: number; email: string; status: string; isprimary: boolean }[];
}

/** The whole state that edits can change, in id order; dates as YYYY-MM-DD. */
export function takeSnapshot(store: Store): Snapshot {
  return {
    users: store.all(
      'SELECT userid, siteid, username, firstname, lastname, employeeid, status, usertype FROM users ORDER BY userid',
    ),
    groupAccess: store
      .all<{ groupid: number; userid: number }>(
        'SELECT groupid, userid FROM group_access ORDER BY groupid, userid',
      )
      .map((r) => [r.groupid, r.userid]),
    moduleAccess: store
      .all<{ siteid: number; accessID: number; userid: number }>(
        'SELECT siteid, accessID, userid FROM module_access ORDER BY siteid, accessID, userid',
      )
      .map((r) => [r.siteid, r.accessID, r.userid]),
    credentialAssignments: store.all(
      `SELECT credentialid || '-' || userid AS id, credentialid, userid, startdate, expirationdate, credentialnumber,
         status, notes, attachmentcount
       FROM credential_assignments ORDER BY credentialid, userid`,
    ),
    trainingAssignments: store.all(
      'SELECT transcriptid, userid, courseid, course_status, start_date AS startdate, due_date AS duedate, assignment_method FROM training_assignments ORDER BY transcriptid',
    ),
    emails: store
      .all<{ emailid: number; userid: number; email: string; status: string; isprimary: number }>(
        'SELECT emailid, userid, email, status, isprimary FROM emails ORDER BY emailid',
      )
      .map((e) => ({ ...e, isprimary: e.isprimary === 1 })),
  };
}

/** Which fields of which record an admin mutation may change, and their columns. */
const MUTABLE = {
  user: {
    table: 'users',
    key: ['userid'],
    fields: {
      siteid: 'siteid',
      username: 'username',
      firstname: 'firstname',
      lastname: 'lastname',
      employeeid: 'employeeid',
      status: 'status',
      usertype: 'usertype',
    },
  },
  email: {
    table: 'emails',
    key: ['emailid'],
    fields: { email: 'email', status: 'status', isprimary: 'isprimary' },
  },
  credentialAssignment: {
    table: 'credential_assignments',
    key: ['credentialid', 'userid'],
    fields: {
      startdate: 'startdate',
      expirationdate: 'expirationdate',
      credentialnumber: 'credentialnumber',
      notes: 'notes',
      status: 'status',
      attachmentcount: 'attachmentcount',
    },
  },
  trainingAssignment: {
    table: 'training_assignments',
    key: ['transcriptid'],
    fields: {
      startdate: 'start_date',
      duedate: 'due_date',
      coursestatus: 'course_status',
      assignmentmethod: 'assignment_method',
    },
  },
} as const;
type Mutable = typeof MUTABLE;
const DATE_COLUMNS = new Set(['startdate', 'expirationdate', 'start_date', 'due_date']);

export const mutationSchema = z.object({
  resource: z.enum(['user', 'email', 'credentialAssignment', 'trainingAssignment']),
  id: z.union([z.number().int(), z.string().regex(/^\d+(-\d+)?$/)]),
  changes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  delete: z.boolean().optional(),
});
export type Mutation = z.infer<typeof mutationSchema>;

/** A person deleted in the web admin takes their e-mails, memberships, access, credentials and training with them. */
const USER_RECORD_TABLES = [
  'emails',
  'group_members',
  'group_access',
  'module_access',
  'credential_assignments',
  'training_assignments',
] as const;

function deleteUserRecords(store: Store, userid: number): void {
  for (const table of USER_RECORD_TABLES) store.run(`DELETE FROM ${table} WHERE userid = ?`, userid);
}

/** Applies a mutation in one transaction; returns whether a record was found. Throws on an unknown field. */
export function applyMutation(store: Store, m: Mutation): boolean {
  const spec: Mutable[keyof Mutable] = MUTABLE[m.resource];
  const keyValues = String(m.id).split('-').map(Number);
  if (keyValues.length !== spec.key.length)
    throw new Error(`id of a ${m.resource} must have ${spec.key.length} part(s)`);
  const where = spec.key.map((k) => `${k} = ?`).join(' AND ');
  const fields: Record<string, string> = spec.fields;
  const sets: string[] = [];
  const values: SqlValue[] = [];
  for (const [name, value] of Object.entries(m.changes ?? {})) {
    const column = fields[name];
    if (!column)
      throw new Error(
        `${m.resource} has no mutable field ${name}; mutable: ${Object.keys(fields).join(', ')}`,
      );
    sets.push(`${column} = ?`);
    values.push(
      typeof value === 'boolean'
        ? value
          ? 1
          : 0
        : DATE_COLUMNS.has(column)
          ? toIsoDate(String(value))
          : value,
    );
  }
  return store.tx(() => {
    if (!store.get(`SELECT 1 FROM ${spec.table} WHERE ${where}`, ...keyValues)) return false;
    if (m.delete && m.resource === 'user') deleteUserRecords(store, keyValues[0]!);
    if (m.delete) store.run(`DELETE FROM ${spec.table} WHERE ${where}`, ...keyValues);
    else if (sets.length)
      store.run(`UPDATE ${spec.table} SET ${sets.join(', ')} WHERE ${where}`, ...values, ...keyValues);
    return true;
  });
}
