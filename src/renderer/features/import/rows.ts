/**
 * From the sheet to queued ops: the mapped values of each row, and the ops of
 * the rows the user keeps (creates with their e-mail waiting for the new id,
 * updates of only what differs, e-mail additions). Pure.
 */
import type { OpDraft } from '../../../shared/replay-queue/queue.ts';
import { newId } from '../../../shared/replay-queue/queue.ts';
import type { Sheet } from './header.ts';
import { IMPORT_FIELDS, type ColumnMapping } from './mapping.ts';
import { normalizeStatus, type GroupRef, type ImportRow, type RowPlan } from './match.ts';
import { extraDrafts, type ImportExtras } from './extras.ts';
import { forEachSliced, mapSliced } from '../../../shared/sliced.ts';
import { normalizeIdentity } from './identity.ts';
import { padId } from './lost-zeros.ts';
import { newUserTargetKey } from '../../../shared/keys.ts';

/** What the new people get besides their fields: the extras chosen for the file, and the groups a column names. */
export interface GiveNewPeople {
  extras: ImportExtras;
  groups: ReadonlyMap<string, GroupRef>;
}
const NOTHING: GiveNewPeople = { extras: {}, groups: new Map() };

// the statuses the bulk editors offer
export { KNOWN_STATUSES } from './match.ts';

function rowOf(row: Sheet['rows'][number], mapping: ColumnMapping, padIds: number | null): ImportRow {
  const values: ImportRow['values'] = {};
  for (const field of IMPORT_FIELDS) {
    const column = mapping[field];
    // composed (NFC) and trimmed of whitespace of every kind (no-break spaces too): what is compared and sent
    if (column !== undefined)
      values[field] = normalizeIdentity((row.cells[column] ?? '').replace(/[\r\n]+/g, ' '));
  }
  // ids that lost their leading zeros, padded back when the user chose so
  if (padIds !== null && values.employeeid) values.employeeid = padId(values.employeeid, padIds);
  return { rowNumber: row.rowNumber, values };
}

/** The mapped values of each row; `padIds`: the width employee ids are padded to with zeros (null: as written). */
export function rowsOf(sheet: Sheet, mapping: ColumnMapping, padIds: number | null = null): ImportRow[] {
  return sheet.rows.map((row) => rowOf(row, mapping, padIds));
}

/** The same rows, a slice at a time (no long task of the window); null when `stopped()` turns true. */
export function rowsInSlices(
  sheet: Sheet,
  mapping: ColumnMapping,
  padIds: number | null,
  stopped: () => boolean,
): Promise<ImportRow[] | null> {
  return mapSliced(sheet.rows, (row) => rowOf(row, mapping, padIds), { stopped });
}

/**
 * Whether a plan is queued: creates and updates (those overriding a queued change too: the file wins) unless excluded;
 * identity changes only when ticked.
 */
export function isQueued(plan: RowPlan, excluded: ReadonlySet<number>, ticked: ReadonlySet<number>): boolean {
  if (plan.action === 'create' || plan.action === 'update') return !excluded.has(plan.rowNumber);
  if (plan.action === 'identity') return ticked.has(plan.rowNumber) && !excluded.has(plan.rowNumber);
  return false;
}

/**
 * The ops of a row that finds someone: only what differs, and the e-mail; for a person only queued to be created, bound
 * to that create.
 */
function updateDrafts(plan: Extract<RowPlan, { action: 'update' | 'identity' }>, drafts: OpDraft[]): void {
  const create = plan.queuedCreate;
  const userid = create ? 0 : plan.user.userid;
  const bound = create
    ? { targetKey: create.targetKey, bindings: [{ fromOp: create.opId, field: 'userid' as const }] }
    : {};
  const fields = plan.changes;
  if (Object.keys(fields).length > 0) {
    const base = Object.fromEntries(Object.keys(fields).map((f) => [f, plan.user[f as keyof typeof fields]]));
    drafts.push({
      op: { kind: 'user.update', userid, changes: fields },
      base,
      ...bound,
      ...(create ? { dependsOn: [create.opId] } : {}),
      summary: `Update ${plan.user.username} (row ${plan.rowNumber})`,
    });
  }
  // an address a queued change removes from someone else is added once it is free
  const after = [...(create ? [create.opId] : []), ...(plan.emailAfter ?? [])];
  if (plan.emailAdded)
    drafts.push({
      op: { kind: 'email.add', userid, email: plan.emailAdded },
      ...bound,
      ...(after.length > 0 ? { dependsOn: after } : {}),
      summary: `Add e-mail ${plan.emailAdded} to ${plan.user.username} (row ${plan.rowNumber})`,
    });
  keptDrafts(plan, drafts);
}

/** The credential and course a queued change deletes that the file gives: assigned again once the deletion is sent. */
function keptDrafts(plan: Extract<RowPlan, { action: 'update' | 'identity' }>, drafts: OpDraft[]): void {
  const { credential, course } = plan.keeps ?? {};
  const { userid, username } = plan.user;
  if (credential)
    drafts.push({
      op: {
        kind: 'credentialAssignment.create',
        credentialid: credential.credentialid,
        userid,
        fields: credential.fields,
      },
      dependsOn: [...credential.after],
      summary: `Assign the credential ${credential.credentialname} to ${username} again (row ${plan.rowNumber})`,
    });
  if (course)
    drafts.push({
      op: {
        kind: 'trainingAssignment.create',
        userid,
        courseid: course.courseid,
        fields: course.duedate ? { duedate: course.duedate } : {},
      },
      dependsOn: [...course.after],
      summary: `Assign the course ${course.coursename} to ${username} again (row ${plan.rowNumber})`,
    });
}

/** The ops of the queued plans, creates before what depends on them. */
export function draftsOf(
  plans: readonly RowPlan[],
  siteid: number,
  excluded: ReadonlySet<number> = new Set(),
  ticked: ReadonlySet<number> = new Set(),
  give: GiveNewPeople = NOTHING,
): OpDraft[] {
  return draftsWithRows(plans, siteid, excluded, ticked, give).drafts;
}

/** The ops, and the row number each comes from (same order). */
function draftsWithRows(
  plans: readonly RowPlan[],
  siteid: number,
  excluded: ReadonlySet<number>,
  ticked: ReadonlySet<number>,
  give: GiveNewPeople = NOTHING,
): { drafts: OpDraft[]; rows: number[] } {
  const drafts: OpDraft[] = [];
  const rows: number[] = [];
  for (const plan of plans) {
    if (!isQueued(plan, excluded, ticked)) continue;
    const before = drafts.length;
    planDrafts(plan, siteid, drafts, give);
    for (let i = before; i < drafts.length; i += 1) rows.push(plan.rowNumber);
  }
  return { drafts, rows };
}

/** The same ops a slice of plans at a time, yielding between slices (no long task of the window on 100,000 ops). */
export async function draftsInSlices(
  plans: readonly RowPlan[],
  siteid: number,
  excluded: ReadonlySet<number>,
  ticked: ReadonlySet<number>,
  give: GiveNewPeople,
): Promise<{ drafts: OpDraft[]; rows: number[] }> {
  const drafts: OpDraft[] = [];
  const rows: number[] = [];
  await forEachSliced(plans.length, (i) => {
    const plan = plans[i]!;
    if (!isQueued(plan, excluded, ticked)) return;
    const before = drafts.length;
    planDrafts(plan, siteid, drafts, give);
    for (let at = before; at < drafts.length; at += 1) rows.push(plan.rowNumber);
  });
  return { drafts, rows };
}

function planDrafts(plan: RowPlan, siteid: number, drafts: OpDraft[], give: GiveNewPeople): void {
  if (plan.action === 'update' || plan.action === 'identity') updateDrafts(plan, drafts);
  else if (plan.action === 'create') {
    const v = plan.values;
    const id = newId();
    const targetKey = newUserTargetKey(siteid, v.username!);
    drafts.push({
      id,
      targetKey,
      op: {
        kind: 'user.create',
        siteid,
        fields: {
          username: v.username!,
          firstname: v.firstname!,
          lastname: v.lastname!,
          ...(v.employeeid ? { employeeid: v.employeeid } : {}),
          ...(v.status ? { status: normalizeStatus(v.status)! } : {}),
        },
      },
      summary: `Create ${v.username} (row ${plan.rowNumber})`,
    });
    if (v.email) {
      drafts.push({
        op: { kind: 'email.add', userid: 0, email: v.email },
        targetKey,
        dependsOn: [id],
        bindings: [{ fromOp: id, field: 'userid' }],
        summary: `Add e-mail ${v.email} to ${v.username} (row ${plan.rowNumber})`,
      });
    }
    const group = v.group ? give.groups.get(v.group.toLowerCase()) : undefined;
    const own = Object.fromEntries(
      (['startdate', 'expirationdate', 'credentialnumber', 'duedate'] as const)
        .filter((f) => v[f])
        .map((f) => [f, v[f]!]),
    );
    drafts.push(
      ...extraDrafts(give.extras, {
        createId: id,
        targetKey,
        siteid,
        username: v.username!,
        rowNumber: plan.rowNumber,
        ...(group ? { group } : {}),
        own,
      }),
    );
  }
}
