/**
 * The one write rule: may a token of this access level queue this operation?
 * Bulk edits, record edits, the import and their previews all ask it, so a
 * token is refused the same way on every path, before anything is queued.
 * Main learns the level (src/main/secrets/access.ts); the server has the last
 * word (an op it refuses anyway waits in the Outbox for review).
 */
import type { OpKind, TokenAccess } from './ipc.ts';
import { OP_KIND_TABLE } from './op-kinds.ts';

/** Why this token may not queue this kind of operation, as a sentence for the user; null when it may. */
export function writeRefusal(access: TokenAccess, kind: OpKind): string | null {
  switch (access) {
    case 'full':
    case 'unknown': // not yet checked: queue, and let the server decide
      return null;
    case 'readonly':
      return "This profile's token is read-only.";
    case 'feature': {
      const row = OP_KIND_TABLE[kind];
      return row.featureTokenMaySend
        ? null
        : `This profile's token is limited to one feature, which does not include ${row.changes}.`;
    }
  }
}

/**
 * The first refusal among these kinds (a form or an import that queues several): null when the token may queue them
 * all.
 */
export function firstWriteRefusal(access: TokenAccess, kinds: readonly OpKind[]): string | null {
  for (const kind of kinds) {
    const refusal = writeRefusal(access, kind);
    if (refusal !== null) return refusal;
  }
  return null;
}

/** May a token of this access level queue this kind of operation? */
export function canWrite(access: TokenAccess, kind: OpKind): boolean {
  return writeRefusal(access, kind) === null;
}
