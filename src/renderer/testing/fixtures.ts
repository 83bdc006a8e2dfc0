/** Small builders of cache records and a fake `window.fieldbook` for renderer tests. */
import type {
  CredentialAssignmentRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../shared/records.ts';
import { userSearchKeys, userSortName } from '../../shared/records.ts';
import { toIsoDate } from '../../shared/dates.ts';
import { openFieldbookDb, type FieldbookDb } from '../db/index.ts';
import { SCHEMA_V1, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V8 } from '../db/schema.ts';

let dbCounter = 0;
/** A fresh database per test (fake-indexeddb must be imported by the test file). */
export function freshDb(): FieldbookDb {
  dbCounter += 1;
  return openFieldbookDb(`test-${dbCounter}-${Math.random().toString(36).slice(2)}`);
}

export function user(
  userid: number,
  fields: Partial<Omit<UserRecord, 'searchKeys' | 'sortName'>> = {},
): UserRecord {
  const base = {
    userid,
    siteid: 1,
    username: `user${userid}`,
    firstname: `First${userid}`,
    lastname: `Last${userid}`,
    employeeid: `E${userid}`,
    status: 'Active',
    usertype: 'User',
    ...fields,
  };
  return { ...base, searchKeys: userSearchKeys(base), sortName: userSortName(base) };
}

export function credentialAssignment(
  credentialid: number,
  userid: number,
  expirationdate: string,
  fields: Partial<CredentialAssignmentRecord> = {},
): CredentialAssignmentRecord {
  return {
    id: `${credentialid}-${userid}`,
    credentialid,
    userid,
    startdate: '01/01/2020',
    startIso: '2020-01-01',
    expirationdate,
    expirationIso: toIsoDate(expirationdate),
    credentialnumber: '',
    status: 'active',
    attachmentcount: 0,
    notes: '',
    ...fields,
  };
}

export function trainingAssignment(
  transcriptid: number,
  userid: number,
  courseid: number,
  dueIso: string,
  fields: Partial<TrainingAssignmentRecord> = {},
): TrainingAssignmentRecord {
  return {
    transcriptid,
    userid,
    courseid,
    siteid: 1,
    course_name: `Course ${courseid}`,
    course_type: 1,
    course_status: 'active',
    assignment_method: 'Manual',
    start_date: '',
    start_time: '',
    startIso: '',
    due_date: dueIso,
    due_time: '',
    dueIso,
    assignment_created_date: '',
    createdIso: '',
    ...fields,
  };
}

/** The tables and indexes a database of version 8 held (before the history's rows were packed), for upgrade tests. */
export const SCHEMA_OF_VERSION_8 = {
  ...SCHEMA_V1,
  ...SCHEMA_V3,
  ...SCHEMA_V4,
  ...SCHEMA_V5,
  ...SCHEMA_V6,
  ...SCHEMA_V8,
};
