/**
 * Where a pending record shows: what is pending (create, change, removal) and
 * an Undo that discards the queued operations (and what depends on them).
 */
import { useState } from 'react';
import type { PendingChange, PendingMark } from '../app/overlays.ts';
import { undoOps } from '../outbox/runtime.ts';
import { useRowControlTabIndex } from './grid-context.ts';

const PENDING_LABEL: Record<PendingChange, string> = { create: 'Pending addition', update: 'Pending change', delete: 'Pending removal' };

export function PendingMarker({ row, what }: { row: PendingMark; what?: string }) {
  const [busy, setBusy] = useState(false);
  const tabIndex = useRowControlTabIndex();
  const ids = row.pendingOps ?? [];
  if (ids.length === 0) return null;
  const label = PENDING_LABEL[row.pendingChange ?? 'update'];
  return (
    <span className="pending-marker">
      <span className="badge pending">{label}</span>{' '}
      <button
        type="button"
        tabIndex={tabIndex}
        disabled={busy}
        aria-label={what ? `Undo ${label.toLowerCase()} of ${what}` : `Undo ${label.toLowerCase()}`}
        onClick={(e) => {
          e.stopPropagation();
          setBusy(true);
          void undoOps(ids).finally(() => setBusy(false));
        }}
      >
        Undo
      </button>
    </span>
  );
}
