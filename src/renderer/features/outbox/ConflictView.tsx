/**
 * Conflicts: edits whose record changed on the server since they were made.
 * For each: base / mine / theirs; keep mine, take theirs, or skip for now —
 * one at a time or for all conflicts alike.
 */
import type { OutboxOp } from '../../../shared/outbox.ts';
import { useMemo, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { resolveConflicts, type ConflictChoice } from '../../../shared/replay-queue/queue.ts';
import { outboxStore, queueChanged, useOutbox } from '../../outbox/runtime.ts';
import { displayValue } from './compare.ts';
import { alikeConflicts, conflictFieldsOf } from './view-model.ts';

const NONE: OutboxOp[] = [];

export default function ConflictView() {
  const db = useActiveDb();
  const actor = useOutbox((s) => s.actor);
  const conflicts = useLiveQuery(async () => (db ? (await db.outbox.where('status').equals('conflict').toArray()).sort((a, b) => a.seq - b.seq) : []), [db]) ?? NONE;
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const [forAllAlike, setForAllAlike] = useState(false);
  const current = useMemo(() => conflicts.find((op) => !skipped.has(op.id)) ?? null, [conflicts, skipped]);
  const alike = useMemo(() => (current ? alikeConflicts(conflicts, current) : []), [conflicts, current]);

  if (!current) {
    return (
      <section className="view conflict-view" aria-labelledby="conflicts-heading">
        <h1 id="conflicts-heading">Conflicts</h1>
        <p>{conflicts.length === 0 ? 'No conflicts.' : `${conflicts.length} skipped for now.`}</p>
        {skipped.size > 0 && (
          <button type="button" onClick={() => setSkipped(new Set())}>
            Review the skipped ones again
          </button>
        )}
      </section>
    );
  }
  const targets = forAllAlike ? alike : [current];
  const resolve = async (choice: ConflictChoice) => {
    const odb = outboxStore.getState().db;
    if (!odb) return;
    await resolveConflicts(odb, targets.map((op) => op.id), choice, actor);
    await queueChanged();
  };
  return (
    <section className="view conflict-view" aria-labelledby="conflicts-heading">
      <h1 id="conflicts-heading">Conflicts ({conflicts.length})</h1>
      <h2>{current.summary}</h2>
      <p>This record was changed on the server after your edit was made.</p>
      <table aria-label="Values in conflict">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">When you edited (base)</th>
            <th scope="col">Yours</th>
            <th scope="col">On the server now</th>
          </tr>
        </thead>
        <tbody>
          {conflictFieldsOf(current).map((f) => (
            <tr key={f.field}>
              <th scope="row">{f.field}</th>
              <td>{displayValue(f.base)}</td>
              <td>{displayValue(f.mine)}</td>
              <td>{displayValue(f.theirs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {alike.length > 1 && (
        <label>
          <input type="checkbox" checked={forAllAlike} onChange={(e) => setForAllAlike(e.target.checked)} /> Apply to all {alike.length} conflicts alike
        </label>
      )}
      <div className="toolbar">
        <button type="button" onClick={() => void resolve('mine')}>
          Keep mine
        </button>
        <button type="button" onClick={() => void resolve('theirs')}>
          Take theirs
        </button>
        <button type="button" onClick={() => setSkipped(new Set([...skipped, ...targets.map((op) => op.id)]))}>
          Skip
        </button>
      </div>
    </section>
  );
}
