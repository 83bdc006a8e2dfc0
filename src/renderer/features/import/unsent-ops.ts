/**
 * The outbox's unsent ops as the import's cache follows them: looked at again
 * each time the outbox's version moves, and handed on only when they are
 * another list than the last one (ops-memo.ts keeps the same list until a write
 * to the outbox). The version also moves when nothing was queued or sent: each
 * connection probe (every 15 s) tells the outbox engine whether it is online,
 * and the engine reports a change. Followed by the version alone, the import
 * read its 20,000 people and their e-mails again on each (a second of
 * IndexedDB's time, `npm run bench -- import`) and planned a file being
 * previewed again from its first row.
 */
import { useEffect, useRef, useState } from 'react';
import type { OutboxOp } from '../../../shared/outbox.ts';
import { memoUnsentOps } from '../../outbox/ops-memo.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';

type OpsSource = Parameters<typeof memoUnsentOps>[0];

export interface UnsentOpsFollower {
  /** the outbox's version moved: its ops are looked at again */
  moved(): void;
  stop(): void;
}

/** Calls `onOps` with the unsent ops at once, then after each `moved()` that finds another list than the last. */
export function followUnsentOps(db: OpsSource, onOps: (ops: readonly OutboxOp[]) => void): UnsentOpsFollower {
  let last: readonly OutboxOp[] | null = null;
  let stopped = false;
  const look = () => {
    void memoUnsentOps(db).then(
      (ops) => {
        if (stopped || ops === last) return;
        last = ops;
        onOps(ops);
      },
      // a failed read is not kept by the memo: the next move reads again
      () => undefined,
    );
  };
  look();
  return {
    moved: look,
    stop: () => {
      stopped = true;
    },
  };
}

/** The unsent ops of `db` (undefined until first read): a new list only when the queue changed. */
export function useUnsentOps(db: OpsSource | null): readonly OutboxOp[] | undefined {
  const version = usePendingVersion();
  const follower = useRef<UnsentOpsFollower | null>(null);
  const [seen, setSeen] = useState<{ db: OpsSource; ops: readonly OutboxOp[] } | null>(null);
  useEffect(() => {
    if (!db) return;
    const next = followUnsentOps(db, (ops) => setSeen({ db, ops }));
    follower.current = next;
    return () => {
      next.stop();
      if (follower.current === next) follower.current = null;
    };
  }, [db]);
  useEffect(() => {
    follower.current?.moved();
  }, [version]);
  return seen && seen.db === db ? seen.ops : undefined;
}
