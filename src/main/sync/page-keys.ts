/**
 * The keys of a page the cache already holds (its body hashed as when it was
 * last written): read with schemas of the key fields only, which convert them
 * exactly as the full schemas do (`wireInt`), so the pager's de-duplication and
 * the pass's pruning see the same keys as for a page read in full. The full
 * validation is skipped: these very bytes passed it when the page was written.
 */
import { z } from 'zod';
import { wireInt, wireText } from '../../shared/api/wire.ts';
import { assignmentIdFromLink } from '../../shared/records.ts';
import type { SyncTask, TaskKind } from './tasks.ts';

const byUser = z.object({ userid: wireInt }).loose();
/**
 * Kinds whose unchanged pages are skipped: lists that neither create tasks nor
 * announce totals (profile and credential categories count their groups and
 * credentials, so they are always read in full; they are short).
 */
const KEY_SCHEMAS: Partial<Record<TaskKind, z.ZodType<Record<string, unknown>>>> = {
  users: byUser,
  groupMembers: byUser,
  groupAccess: byUser,
  moduleAccess: byUser,
  courses: z.object({ courseid: wireInt }).loose(),
  trainingAssignments: z.object({ transcriptid: wireInt }).loose(),
  credentialAssignments: z.object({ credentialid: wireInt, userid: wireInt.optional(), link: wireText.optional().default('') }).loose(),
};

export function skippable(task: SyncTask): boolean {
  return KEY_SCHEMAS[task.kind] !== undefined;
}

/** The page's items reduced to their key fields (what `itemKey` reads), or null when the kind has no key schema or an item does not fit. */
export function keyItems(task: SyncTask, raw: readonly unknown[]): Record<string, unknown>[] | null {
  const schema = KEY_SCHEMAS[task.kind];
  if (!schema) return null;
  const parsed = z.array(schema).safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The primary keys of the task collection's records these items make (as `toRecords` would key them). */
export function recordKeysOf(task: SyncTask, items: readonly Record<string, unknown>[]): (string | number)[] {
  const { scope } = task;
  const out: (string | number)[] = [];
  for (const item of items) {
    switch (task.kind) {
      case 'groupMembers':
      case 'groupAccess':
        out.push(`${scope.groupid ?? 0}-${item.userid as number}`);
        break;
      case 'moduleAccess':
        out.push(`${scope.siteid ?? 0}-${scope.accessID ?? 0}-${item.userid as number}`);
        break;
      case 'credentialAssignments': {
        const uid = (item.userid as number | undefined) ?? assignmentIdFromLink(item.link as string)?.userid;
        // an assignment naming no user is not cached (normalizeCredentialAssignment): no key
        if (uid !== undefined) out.push(`${item.credentialid as number}-${uid}`);
        break;
      }
      case 'users':
        out.push(item.userid as number);
        break;
      case 'courses':
        out.push(item.courseid as number);
        break;
      case 'trainingAssignments':
        out.push(item.transcriptid as number);
        break;
      default:
        break;
    }
  }
  return out;
}
