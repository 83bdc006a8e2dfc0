/**
 * What a sync changed in the cache, in the coordinator's terms: people added,
 * removed or changed (status, user type, site, name); credential assignments
 * added, removed, renewed, newly expired; training assigned, completed, newly
 * overdue; access granted or revoked. Computed from the comparison the sync
 * already makes (incoming page vs cached copies) and from what a complete pass
 * prunes. Pure, but for nothing: the log itself is written by log.ts.
 */
import type {
  AnyRecord,
  CollectionName,
  CredentialAssignmentRecord,
  GroupAccessRecord,
  ModuleAccessRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../../shared/records.ts';
import { isTrainingDone } from '../app/compliance.ts';

export const CHANGE_KINDS = [
  'person.added',
  'person.removed',
  'person.status',
  'person.usertype',
  'person.site',
  'person.name',
  'credential.added',
  'credential.removed',
  'credential.renewed',
  'credential.expired',
  'training.assigned',
  'training.completed',
  'training.overdue',
  'training.removed',
  'access.granted',
  'access.revoked',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  'person.added': 'People added',
  'person.removed': 'People removed',
  'person.status': 'Status changed',
  'person.usertype': 'User type changed',
  'person.site': 'Moved to another site',
  'person.name': 'Name changed',
  'credential.added': 'Credentials assigned',
  'credential.removed': 'Credentials removed',
  'credential.renewed': 'Credentials renewed',
  'credential.expired': 'Credentials newly expired',
  'training.assigned': 'Training assigned',
  'training.completed': 'Training completed',
  'training.overdue': 'Training newly overdue',
  'training.removed': 'Training removed',
  'access.granted': 'Access granted',
  'access.revoked': 'Access revoked',
};

/** One change, kept small (the log holds the last syncs of a profile). */
export interface ChangeEntry {
  k: ChangeKind;
  /** the person it concerns */
  u: number;
  /** what changed, in words ("Active → Inactive", "course 12", "credential 3 to 2028-06-30") */
  d?: string;
  /** the site of a person removed (no longer in the cache to look up) */
  s?: number;
  /**
   * a removed credential's expiration or a removed training's due date (ISO, '' for none or done):
   * what the person stood on before, for the compliance they had (features/changes/impact.ts)
   */
  e?: string;
}

const arrow = (from: unknown, to: unknown) => `${String(from ?? '')} → ${String(to ?? '')}`;

function userChanges(next: UserRecord, old: UserRecord | undefined): ChangeEntry[] {
  if (!old) return [{ k: 'person.added', u: next.userid }];
  const out: ChangeEntry[] = [];
  if (old.status !== next.status)
    out.push({ k: 'person.status', u: next.userid, d: arrow(old.status, next.status) });
  if (old.usertype !== next.usertype)
    out.push({ k: 'person.usertype', u: next.userid, d: arrow(old.usertype, next.usertype) });
  if (old.siteid !== next.siteid)
    out.push({ k: 'person.site', u: next.userid, d: arrow(old.siteid, next.siteid) });
  if (old.firstname !== next.firstname || old.lastname !== next.lastname) {
    out.push({
      k: 'person.name',
      u: next.userid,
      d: arrow(`${old.firstname} ${old.lastname}`.trim(), `${next.firstname} ${next.lastname}`.trim()),
    });
  }
  return out;
}

function credentialChanges(
  next: CredentialAssignmentRecord,
  old: CredentialAssignmentRecord | undefined,
): ChangeEntry[] {
  if (!old) return [{ k: 'credential.added', u: next.userid, d: `credential ${next.credentialid}` }];
  if (next.expirationIso > old.expirationIso)
    return [
      {
        k: 'credential.renewed',
        u: next.userid,
        d: `credential ${next.credentialid}: ${arrow(old.expirationIso, next.expirationIso)}`,
      },
    ];
  return [];
}

function trainingChanges(
  next: TrainingAssignmentRecord,
  old: TrainingAssignmentRecord | undefined,
): ChangeEntry[] {
  if (!old)
    return [{ k: 'training.assigned', u: next.userid, d: next.course_name || `course ${next.courseid}` }];
  if (isTrainingDone(next) && !isTrainingDone(old))
    return [{ k: 'training.completed', u: next.userid, d: next.course_name || `course ${next.courseid}` }];
  return [];
}

/** Changes of one page: each incoming record against its cached copy (same index), as ingest compares them. */
export function pageChanges(
  collection: CollectionName,
  incoming: readonly AnyRecord[],
  stored: readonly (AnyRecord | undefined)[],
): ChangeEntry[] {
  const out: ChangeEntry[] = [];
  for (let i = 0; i < incoming.length; i++) {
    const next = incoming[i]!;
    const old = stored[i];
    switch (collection) {
      case 'users':
        out.push(...userChanges(next as UserRecord, old as UserRecord | undefined));
        break;
      case 'credentialAssignments':
        out.push(
          ...credentialChanges(
            next as CredentialAssignmentRecord,
            old as CredentialAssignmentRecord | undefined,
          ),
        );
        break;
      case 'trainingAssignments':
        out.push(
          ...trainingChanges(next as TrainingAssignmentRecord, old as TrainingAssignmentRecord | undefined),
        );
        break;
      case 'groupAccess':
        if (!old)
          out.push({
            k: 'access.granted',
            u: (next as GroupAccessRecord).userid,
            d: `group ${(next as GroupAccessRecord).groupid}`,
          });
        break;
      case 'moduleAccess':
        if (!old)
          out.push({
            k: 'access.granted',
            u: (next as ModuleAccessRecord).userid,
            d: `feature ${(next as ModuleAccessRecord).accessID}`,
          });
        break;
      default:
        break;
    }
  }
  return out;
}

/** A removed training: its course by id, and its due date unless it was done (done needs no date to stand). */
function trainingRemoval(old: TrainingAssignmentRecord): ChangeEntry {
  return {
    k: 'training.removed',
    u: old.userid,
    d: `course ${old.courseid}`,
    e: isTrainingDone(old) ? '' : old.dueIso,
  };
}

/** Changes of records a complete pass removed (the cached copies read just before they are deleted). */
export function removalChanges(collection: CollectionName, removed: readonly AnyRecord[]): ChangeEntry[] {
  const out: ChangeEntry[] = [];
  for (const old of removed) {
    switch (collection) {
      case 'users':
        out.push({
          k: 'person.removed',
          u: (old as UserRecord).userid,
          d: `${(old as UserRecord).firstname} ${(old as UserRecord).lastname}`.trim(),
          s: (old as UserRecord).siteid,
        });
        break;
      case 'credentialAssignments':
        out.push({
          k: 'credential.removed',
          u: (old as CredentialAssignmentRecord).userid,
          d: `credential ${(old as CredentialAssignmentRecord).credentialid}`,
          e: (old as CredentialAssignmentRecord).expirationIso,
        });
        break;
      case 'trainingAssignments':
        out.push(trainingRemoval(old as TrainingAssignmentRecord));
        break;
      case 'groupAccess':
        out.push({
          k: 'access.revoked',
          u: (old as GroupAccessRecord).userid,
          d: `group ${(old as GroupAccessRecord).groupid}`,
        });
        break;
      case 'moduleAccess':
        out.push({
          k: 'access.revoked',
          u: (old as ModuleAccessRecord).userid,
          d: `feature ${(old as ModuleAccessRecord).accessID}`,
        });
        break;
      default:
        break;
    }
  }
  return out;
}

/** Collections whose changes the log records (the others are catalogues: sites, groups, courses...). */
export const TRACKED: ReadonlySet<CollectionName> = new Set([
  'users',
  'credentialAssignments',
  'trainingAssignments',
  'groupAccess',
  'moduleAccess',
]);

export type ChangeCounts = Partial<Record<ChangeKind, number>>;
