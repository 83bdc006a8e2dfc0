/**
 * The coordinator's words for the platform's field names: one table for every
 * place that names a field, in the renderer (conflicts, Outbox, Inspect, undo,
 * previews, import columns: through src/renderer/app/words.ts) and in main (a
 * record the platform sent that could not be read). A raw API name is never
 * shown to a person. Every field of the wire schemas (src/shared/api/wire.ts)
 * has its words here.
 */

const FIELD_LABELS: Readonly<Record<string, string>> = {
  userid: 'Person',
  siteid: 'Site',
  username: 'Username',
  firstname: 'First name',
  lastname: 'Last name',
  employeeid: 'Employee ID',
  status: 'Status',
  usertype: 'User type',
  email: 'E-mail',
  emailid: 'E-mail',
  isprimary: 'Primary e-mail',
  groupid: 'Group',
  groupname: 'Group',
  categoryid: 'Category',
  accessID: 'Feature',
  credentialid: 'Credential',
  credentialname: 'Credential',
  startdate: 'Start date',
  expirationdate: 'Expiration date',
  credentialnumber: 'Credential number',
  notes: 'Notes',
  courseid: 'Course',
  coursename: 'Course',
  course_name: 'Course',
  course_status: 'Training status',
  start_date: 'Start date',
  start_time: 'Start time',
  due_date: 'Due date',
  due_time: 'Due time',
  assignment_method: 'Assigned by',
  transcriptid: 'Training assignment',
  // the names outbox ops use for training fields, and the others they change
  duedate: 'Due date',
  coursestatus: 'Training status',
  assignmentmethod: 'Assigned by',
  password: 'Password',
  /** the record as a whole (is it there at all?), in conflicts and the undo preview */
  record: 'Record',
  // the other fields of the wire schemas, as a message about a record the platform sent names them
  sitename: 'Site name',
  loginpage: 'Sign-in page',
  links: 'Links',
  link: 'Link',
  categoryname: 'Category name',
  groupcount: 'Number of groups',
  usercount: 'Number of members',
  accessusercount: 'Number of supervisors',
  moduleName: 'Feature',
  functionName: 'Function',
  credentialcount: 'Number of credentials',
  description: 'Description',
  requiredstartdate: 'Start date requirement',
  requiredexpirationdate: 'Expiration date requirement',
  requiredcredentialnum: 'Credential number requirement',
  requirements: 'Requirements',
  activeusercount: 'Number of active holders',
  inactiveusercount: 'Number of inactive holders',
  attachmentcount: 'Number of attachments',
  coursetype: 'Course type',
  course_type: 'Course type',
  assignment_created_date: 'Assigned on',
};

/** "expirationdate" → "Expiration date"; an unknown name is made readable rather than shown raw. */
export function fieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known !== undefined) return known;
  const spaced = field
    .replace(/_/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** A field's label inside a sentence: "status", "first name", "employee ID" (acronyms keep their capitals). */
export function fieldInSentence(field: string): string {
  return lowerCased(fieldLabel(field));
}

/** A field's label inside a sentence when the table knows it; null for a name it does not (nothing is made up). */
export function knownFieldInSentence(field: string): string | null {
  const known = Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field] : undefined;
  return known === undefined ? null : lowerCased(known);
}

function lowerCased(label: string): string {
  return label.replace(/\b([A-Z])(?=[a-z-])/g, (letter) => letter.toLowerCase());
}

/** Every raw field name the table knows (for the test that no view shows one). */
export const RAW_FIELD_NAMES: readonly string[] = Object.keys(FIELD_LABELS);
