/**
 * Wire types of the Data API v1: one zod schema per resource, written to accept
 * what the real platform sends (api-notes.md "Client robustness"): ids as numeric
 * strings, `links` as an object or an array of single-key objects, text that
 * arrives as a number or `false` (empty), unknown extra fields (kept on sites and users), unknown status
 * values (kept as they are).
 *
 * The reference server builds its answers with the same types, so the wire shape
 * is declared once.
 */
import { z } from 'zod';

/** An integer id, also when sent as a numeric string. */
const wireInt = z.union([
  z.number().int(),
  z
    .string()
    .trim()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number),
]);

/**
 * A record's id: a positive integer (also as a numeric string). The platform
 * numbers records from 1; a 0 or a negative id is a malformed record, refused
 * like an id that is not a number (it would collide with the app's own
 * negative ids for records not yet sent, and says the answer is not the API's).
 */
export const wireId = wireInt.refine((id) => id > 0, 'expected a positive id');

/**
 * Free text: strings as they are; numbers as their text; null and `false` (how
 * the platform sends some empty text, a group's name: api-notes.md) as ''.
 * `true` is no text: refused as malformed, never stored as "true".
 */
export const wireText = z
  .union([z.string(), z.number(), z.literal(false), z.null()])
  .transform((v) => (v === null || v === false ? '' : String(v)));

/** Links come as `{key: url}` or as `[{key: url}, ...]`; both become one record. */
export const wireLinks = z
  .union([z.record(z.string(), z.string()), z.array(z.record(z.string(), z.string()))])
  .transform((v): Record<string, string> => (Array.isArray(v) ? Object.assign({}, ...v) : v));

export type LinksObject = Record<string, string>;
export type LinksArray = Record<string, string>[];

export const paginationSchema = z.object({ next: z.string().optional() }).loose();

// ---- Resources as they travel (the reference server writes these shapes) ----

export interface WireSite {
  siteid: number;
  sitename: string;
  loginpage: string;
  links: LinksArray;
}

export interface WireEmail {
  emailid: number;
  email: string;
  status: string;
  isprimary?: boolean;
  link: string;
}

export interface WireUser {
  userid: number;
  siteid: number;
  username: string;
  firstname: string;
  lastname: string;
  employeeid: string;
  status: string;
  usertype: string;
  email: WireEmail[];
  links: LinksObject;
}

/** Item of a profile group's member list (wrapper `Users`). */
export interface WireGroupMember {
  links: LinksObject;
  firstname: string;
  lastname: string;
  employeeid: string;
  username: string;
  userid: number;
}

export interface WireProfileCategory {
  categoryid: number;
  siteid: number;
  categoryname: string;
  groupcount: number;
  links: LinksArray;
}

export interface WireGroup {
  groupid: number;
  siteid: number;
  categoryid: number;
  groupname: string;
  usercount: number;
  /** absent on a user's own group list */
  accessusercount?: number;
  links: LinksObject;
}

export interface WireModule {
  accessID: number;
  moduleName: string;
  functionName: string;
  links: LinksObject;
}

export interface WireCredentialCategory {
  categoryid: number;
  siteid: number;
  categoryname: string;
  credentialcount: number;
  links: LinksArray;
}

export interface WireCredential {
  credentialid: number;
  credentialname: string;
  description: string;
  categoryid: number;
  categoryname: string;
  requiredstartdate: number;
  requiredexpirationdate: number;
  requiredcredentialnum: number;
  requirements: string;
  activeusercount: number;
  inactiveusercount: number;
  link: LinksArray;
}

/**
 * Credential assignment (wrapper `Credentials`). The per-credential list
 * (`/credentials/{id}/assignments`, shape "not shown") also carries userid,
 * firstname and lastname in the reference server; clients fall back to the
 * `<credentialid>-<userid>` segment of `link` when userid is absent.
 */
export interface WireCredentialAssignment {
  credentialid: number;
  userid?: number;
  firstname?: string;
  lastname?: string;
  startdate: string;
  expirationdate: string;
  credentialnumber: string;
  status: string;
  attachmentcount: number;
  notes: string;
  link: string;
}

export interface WireCourse {
  courseid: number;
  siteid: number;
  coursename: string;
  coursetype: number;
  status: string;
  links: LinksObject;
}

export interface WireTrainingAssignment {
  transcriptid: number;
  userid: number;
  courseid: number;
  employeeid: number | string;
  firstname: string;
  lastname: string;
  course_name: string;
  course_type: number;
  course_status: string;
  assignment_method: string;
  start_date: string;
  start_time: string;
  due_date: string;
  due_time: string;
  assignment_created_date: string;
}

/** A user holding access over a group or a feature (wrapper `users`, shape decided by the reference server). */
export interface WireAccessUser {
  userid: number;
  username: string;
  firstname: string;
  lastname: string;
  links: LinksObject;
}

/** List wrapper keys, exactly as the contract spells them. */
export const WrapperKey = {
  sites: 'sites',
  users: 'users',
  groupMembers: 'Users',
  emails: 'emails',
  profileCategories: 'profilecategories',
  groups: 'groups',
  modules: 'modules',
  credentialCategories: 'categories',
  credentials: 'credentials',
  credentialAssignments: 'Credentials',
  trainingAssignments: 'trainingassignments',
  courses: 'courses',
  accessUsers: 'users',
} as const;
export type WrapperKey = (typeof WrapperKey)[keyof typeof WrapperKey];

// ---- Validation schemas (client side: lenient in what they accept) ----

const emailItem = z
  .object({
    emailid: wireId,
    email: wireText,
    status: wireText.optional().default(''),
    isprimary: z.union([z.boolean(), z.number(), z.string()]).optional(),
    link: wireText.optional().default(''),
  })
  .loose();

export const schemas = {
  site: z
    .object({
      siteid: wireId,
      sitename: wireText,
      loginpage: wireText.optional().default(''),
      links: wireLinks.optional(),
    })
    .loose(),
  user: z
    .object({
      userid: wireId,
      siteid: wireId,
      username: wireText,
      firstname: wireText,
      lastname: wireText,
      employeeid: wireText.optional().default(''),
      status: wireText,
      usertype: wireText.optional().default(''),
      // e-mails may be objects or bare address strings, or absent
      email: z
        .array(z.union([emailItem, z.string()]))
        .optional()
        .default([]),
      links: wireLinks.optional(),
    })
    .loose(),
  groupMember: z
    .object({
      userid: wireId,
      username: wireText.optional().default(''),
      firstname: wireText.optional().default(''),
      lastname: wireText.optional().default(''),
      employeeid: wireText.optional().default(''),
      links: wireLinks.optional(),
    })
    .loose(),
  email: emailItem,
  profileCategory: z
    .object({
      categoryid: wireId,
      siteid: wireId,
      categoryname: wireText,
      groupcount: wireInt.optional().default(0),
      links: wireLinks.optional(),
    })
    .loose(),
  group: z
    .object({
      groupid: wireId,
      siteid: wireId.optional(),
      categoryid: wireId.optional(),
      groupname: wireText,
      usercount: wireInt.optional().default(0),
      accessusercount: wireInt.optional(),
      links: wireLinks.optional(),
    })
    .loose(),
  module: z
    .object({
      accessID: wireId,
      moduleName: wireText,
      functionName: wireText.optional().default(''),
      links: wireLinks.optional(),
    })
    .loose(),
  credentialCategory: z
    .object({
      categoryid: wireId,
      siteid: wireId.optional(),
      categoryname: wireText,
      credentialcount: wireInt.optional().default(0),
      links: wireLinks.optional(),
    })
    .loose(),
  credential: z
    .object({
      credentialid: wireId,
      credentialname: wireText,
      description: wireText.optional().default(''),
      categoryid: wireId.optional(),
      categoryname: wireText.optional().default(''),
      requiredstartdate: wireInt.optional().default(0),
      requiredexpirationdate: wireInt.optional().default(0),
      requiredcredentialnum: wireInt.optional().default(0),
      requirements: wireText.optional().default(''),
      activeusercount: wireInt.optional().default(0),
      inactiveusercount: wireInt.optional().default(0),
      link: wireLinks.optional(),
    })
    .loose(),
  credentialAssignment: z
    .object({
      credentialid: wireId,
      userid: wireId.optional(),
      firstname: wireText.optional(),
      lastname: wireText.optional(),
      startdate: wireText.optional().default(''),
      expirationdate: wireText.optional().default(''),
      credentialnumber: wireText.optional().default(''),
      status: wireText.optional().default(''),
      attachmentcount: wireInt.optional().default(0),
      notes: wireText.optional().default(''),
      link: wireText.optional().default(''),
    })
    .loose(),
  course: z
    .object({
      courseid: wireId,
      siteid: wireId.optional(),
      coursename: wireText,
      coursetype: wireInt.optional(),
      status: wireText.optional().default(''),
      links: wireLinks.optional(),
    })
    .loose(),
  trainingAssignment: z
    .object({
      transcriptid: wireId,
      userid: wireId,
      courseid: wireId,
      employeeid: wireText.optional().default(''),
      firstname: wireText.optional().default(''),
      lastname: wireText.optional().default(''),
      course_name: wireText.optional().default(''),
      course_type: wireInt.optional(),
      course_status: wireText.optional().default(''),
      assignment_method: wireText.optional().default(''),
      start_date: wireText.optional().default(''),
      start_time: wireText.optional().default(''),
      due_date: wireText.optional().default(''),
      due_time: wireText.optional().default(''),
      assignment_created_date: wireText.optional().default(''),
    })
    .loose(),
  accessUser: z
    .object({
      userid: wireId,
      username: wireText.optional().default(''),
      firstname: wireText.optional().default(''),
      lastname: wireText.optional().default(''),
      links: wireLinks.optional(),
    })
    .loose(),
} as const;

export type SchemaName = keyof typeof schemas;
export type Parsed<K extends SchemaName> = z.output<(typeof schemas)[K]>;
