/**
 * Items of a page the cache already holds. A page whose body hashes as when it
 * was last written is not even parsed: its items are the keys its fingerprint
 * lists. A page that changed is parsed, and each item is hashed as received
 * (`itemHash`): an item hashing as the cache's copy was made from is kept as
 * its key only, without validation (those very fields passed it when the copy
 * was written); only the others are validated, sent and compared.
 *
 * Keys are read with schemas of the key fields only, which convert them
 * exactly as the full schemas do (`wireId`), so the pager's de-duplication and
 * the pass's pruning see the same keys as for a page read in full.
 */
import { hash } from 'node:crypto';
import { z } from 'zod';
import { wireId, wireText } from '../../shared/api/wire.ts';
import { assignmentIdFromLink } from '../../shared/records.ts';
import { ITEM_HASH_CHARS, type TaskItems } from '../../shared/page-fingerprints.ts';
import { itemKey, type SyncTask, type TaskKind } from './tasks.ts';
import { credentialAssignmentKey } from '../../shared/keys.ts';

const byUser = z.object({ userid: wireId }).loose();
const HOLDER_KEYS = z
  .object({ credentialid: wireId, userid: wireId.optional(), link: wireText.optional().default('') })
  .loose();
/** Lists of credential holders, customer-wide or among the kept people: keyed by credential and user. */
const HOLDER_LISTS = new Set<TaskKind>(['credentialAssignments', 'keptCredentialAssignments']);
/**
 * Kinds whose unchanged pages are skipped: lists that neither create tasks nor
 * announce totals (profile and credential categories count their groups and
 * credentials, so they are always read in full; they are short).
 */
const KEY_SCHEMAS: Partial<Record<TaskKind, z.ZodType<Record<string, unknown>>>> = {
  users: byUser,
  // a kept site's people: their keys still reach the holders' filter (kept.ts) and the identity index (identities.ts)
  siteUsers: byUser,
  groupMembers: byUser,
  groupAccess: byUser,
  moduleAccess: byUser,
  courses: z.object({ courseid: wireId }).loose(),
  trainingAssignments: z.object({ transcriptid: wireId }).loose(),
  credentialAssignments: HOLDER_KEYS,
  // the holders among a kept site's people: their pages' fingerprints list those holders only (kept.ts, compare.ts)
  keptCredentialAssignments: HOLDER_KEYS,
};

export function skippable(task: SyncTask): boolean {
  return KEY_SCHEMAS[task.kind] !== undefined;
}

/**
 * The page's items reduced to their key fields (what `itemKey` reads), or null when the kind has no key schema or an
 * item does not fit.
 */
export function keyItems(task: SyncTask, raw: readonly unknown[]): Record<string, unknown>[] | null {
  const schema = KEY_SCHEMAS[task.kind];
  if (!schema) return null;
  const parsed = z.array(schema).safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** An item the cache holds as received: only its key travels on (the pager de-duplicates by it). */
export class KnownItem {
  readonly key: string | number;
  constructor(key: string | number) {
    this.key = key;
  }
}

/** The one key field of kinds keyed by a single integer. */
const INT_KEY: Partial<Record<TaskKind, string>> = {
  users: 'userid',
  siteUsers: 'userid',
  groupMembers: 'userid',
  groupAccess: 'userid',
  moduleAccess: 'userid',
  courses: 'courseid',
  trainingAssignments: 'transcriptid',
};

/**
 * A hash of one item as received: its bytes (found by a scan of the page,
 * `scanList`), or for a page the scan could not read, the item re-serialised
 * (`JSON.stringify`), the same text when the server sends compact JSON as the
 * reference server does. Both paths hash with this one function.
 */
export function itemHash(item: Uint8Array | string): string {
  return hash('sha256', item, 'base64url').slice(0, ITEM_HASH_CHARS);
}

/**
 * The one item comparison of both paths (bytes and parsed): the cache holds
 * the item of this key as received when its hash is the one the cache's copy
 * was made from. Knowing the key is not enough: its item may have changed.
 */
export function heldAsReceived(held: TaskItems, key: string | number, itemHashed: string): boolean {
  return held.hashes.get(key) === itemHashed;
}

/** The integer key fields a scan of `task`'s pages reads in each item (`scannedKey` makes its key of them). */
export function scanFields(task: SyncTask): readonly string[] {
  const field = INT_KEY[task.kind];
  if (field !== undefined) return [field];
  return HOLDER_LISTS.has(task.kind) ? ['credentialid', 'userid'] : [];
}

/**
 * Item i's key (`itemKey`) from the integer key fields a scan read
 * (`scanFields`), or undefined when one is not a plain integer (the item is
 * then parsed to know its key).
 */
export function scannedKey(task: SyncTask, keys: Float64Array, i: number): string | number | undefined {
  if (HOLDER_LISTS.has(task.kind)) {
    const credentialid = keys[2 * i]!;
    const userid = keys[2 * i + 1]!;
    return Number.isNaN(credentialid) || Number.isNaN(userid)
      ? undefined
      : credentialAssignmentKey(credentialid, userid);
  }
  const key = keys[i]!;
  return Number.isNaN(key) ? undefined : key;
}

/**
 * The keys the pager de-duplicates these raw items by, or null when an item's
 * key fields do not fit. An integer key read as it is; anything else (a key
 * sent as text, a credential assignment) goes through the key schema, as the
 * full validation would convert it.
 */
export function rawItemKeys(task: SyncTask, raw: readonly unknown[]): (string | number)[] | null {
  const field = INT_KEY[task.kind];
  if (field !== undefined) {
    const keys: number[] = [];
    for (const item of raw) {
      const value =
        item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[field] : undefined;
      if (!Number.isSafeInteger(value)) return slowKeys(task, raw);
      keys.push(value as number);
    }
    return keys;
  }
  return slowKeys(task, raw);
}

function slowKeys(task: SyncTask, raw: readonly unknown[]): (string | number)[] | null {
  const items = keyItems(task, raw);
  return items ? items.map((item) => itemKey(task, item as never)) : null;
}

/**
 * The record key of an item known by its item key (`itemKey`): the same for
 * lists of one record type, prefixed by the task's scope for memberships and
 * access, and the user's id for a credential assignment listed by its link.
 * Null for an assignment naming no user (not cached).
 */
export function recordKeyOfItemKey(task: SyncTask, key: string | number): string | number | null {
  const { scope } = task;
  switch (task.kind) {
    case 'groupMembers':
    case 'groupAccess':
      return `${scope.groupid ?? 0}-${key}`;
    case 'moduleAccess':
      return `${scope.siteid ?? 0}-${scope.accessID ?? 0}-${key}`;
    case 'credentialAssignments':
    case 'keptCredentialAssignments': {
      const text = String(key);
      const dash = text.indexOf('-');
      const rest = text.slice(dash + 1);
      if (/^\d+$/.test(rest)) return text;
      const uid = assignmentIdFromLink(rest)?.userid;
      return uid === undefined ? null : `${text.slice(0, dash)}-${uid}`;
    }
    default:
      return key;
  }
}
