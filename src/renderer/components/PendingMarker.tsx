/**
 * Where a pending record shows: what is pending (create, change, removal) and
 * an Undo that discards the queued operations (and what depends on them).
 */
import { useState, type ReactNode } from 'react';
import type { PendingChange, PendingMark } from '../app/overlays.ts';
import { undoOps } from '../outbox/runtime.ts';
import { useRowControlTabIndex } from './grid-context.ts';

const PENDING_LABEL: Record<PendingChange, string> = {
  create: 'Pending addition',
  update: 'Pending change',
  delete: 'Pending removal',
};

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

/**
 * A row's first cell: its name, then its pending mark. The mark keeps its room and the
 * name is cut first, so the mark is read whole however narrow the window (a mark in a
 * fixed-width column beside a state badge was cut to "…").
 */
export function WithPendingMark({
  row,
  what,
  title,
  children,
}: {
  row: PendingMark;
  what?: string;
  title?: string;
  children: ReactNode;
}) {
  return (
    <span className="with-pending-mark">
      {/* the name cut short shows whole on hover */}
      <span className="cell-text" title={title}>
        {children}
      </span>
      <PendingMarker row={row} what={what} />
    </span>
  );
}
