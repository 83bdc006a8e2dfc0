/**
 * Pending edits over cached records. The outbox feature registers one overlay
 * per kind of record (`registerOverlay('users', applyPendingUserOps)`); views
 * pass their query results through `applyOverlays` inside their live query, so
 * a queued change shows at once, marked as pending, and disappears when the
 * outbox row goes.
 */
import type { CredentialAssignmentRecord, GroupAccessRecord, ModuleAccessRecord, TrainingAssignmentRecord, UserRecord } from '../../shared/records.ts';
import type { FieldbookDb } from '../db/index.ts';

/** Set by an overlay on a record that pending operations change (or create). */
export interface PendingMark {
  /** ids of the outbox operations that change this record */
  pendingOps?: string[];
}

export interface OverlayRecords {
  users: UserRecord;
  credentialAssignments: CredentialAssignmentRecord;
  trainingAssignments: TrainingAssignmentRecord;
  groupAccess: GroupAccessRecord;
  moduleAccess: ModuleAccessRecord;
}
export type OverlayKind = keyof OverlayRecords;

export type Overlay<K extends OverlayKind> = (db: FieldbookDb, rows: OverlayRecords[K][]) => Promise<(OverlayRecords[K] & PendingMark)[]>;

const overlays: { [K in OverlayKind]: Overlay<K>[] } = {
  users: [],
  credentialAssignments: [],
  trainingAssignments: [],
  groupAccess: [],
  moduleAccess: [],
};

export function registerOverlay<K extends OverlayKind>(kind: K, overlay: Overlay<K>): () => void {
  const list = overlays[kind] as Overlay<K>[];
  list.push(overlay);
  return () => {
    const i = list.indexOf(overlay);
    if (i >= 0) list.splice(i, 1);
  };
}

export async function applyOverlays<K extends OverlayKind>(kind: K, db: FieldbookDb, rows: OverlayRecords[K][]): Promise<(OverlayRecords[K] & PendingMark)[]> {
  let out: (OverlayRecords[K] & PendingMark)[] = rows;
  for (const overlay of overlays[kind] as Overlay<K>[]) out = await overlay(db, out);
  return out;
}

/** Any record (marked by an overlay or not): does a queued operation change it? */
export function isPending(row: object): boolean {
  return ((row as PendingMark).pendingOps?.length ?? 0) > 0;
}
