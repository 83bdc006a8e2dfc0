/**
 * Learning a token's access level from what the API answers. Pure rules; the
 * handlers feed them.
 *
 * - The probe (connection:probe, while the level is unknown) reads one user,
 *   then sends that user an empty update, which changes nothing: a full token
 *   gets "no valid parameters" (1005) or success, a read-only one 800. A token
 *   that cannot read the user list at all (800) is limited to a feature.
 * - A sync in which some features' holder lists were read and others refused
 *   with 800 says "feature" (a token limited to one feature; a read-only probe
 *   answer is corrected by this).
 * - A write the replay got through says the token can write.
 */
import type { ErrorCode, ReplayOutcome, TokenAccess } from '../../shared/ipc.ts';

export type ProbeAnswer = 'ok' | 'denied' | 'rejected' | 'other';

/** How an answer to a probe request reads: 'rejected' is a validation refusal (the token may write). */
export function probeAnswer(code: ErrorCode | null): ProbeAnswer {
  if (code === null) return 'ok';
  if (code === 'access-denied') return 'denied';
  if (code === 'rejected') return 'rejected';
  return 'other';
}

export function accessFromUserRead(answer: ProbeAnswer): TokenAccess | null {
  return answer === 'denied' ? 'feature' : null;
}

export function accessFromEmptyUpdate(answer: ProbeAnswer): TokenAccess {
  if (answer === 'denied') return 'readonly';
  if (answer === 'ok' || answer === 'rejected') return 'full';
  return 'unknown';
}

export interface ListOutcome {
  collection: string;
  state: 'pending' | 'running' | 'complete' | 'failed';
  errorCode?: ErrorCode;
}

export function accessFromSync(current: TokenAccess, lists: readonly ListOutcome[]): TokenAccess {
  if (current === 'full' || current === 'feature') return current;
  const features = lists.filter((l) => l.collection === 'moduleAccess');
  const refused = features.some((l) => l.errorCode === 'access-denied');
  const read = features.some((l) => l.state === 'complete');
  return refused && read ? 'feature' : current;
}

export function accessFromReplay(current: TokenAccess, outcome: ReplayOutcome): TokenAccess {
  if (outcome.status === 'done' && !outcome.alreadyApplied && current === 'unknown') return 'full';
  return current;
}
