/**
 * Upgrade functions of the database, one named function per schema version that
 * needs one, referenced from db/index.ts. Each upgrade runs inside Dexie's
 * versionchange transaction when a database written by an earlier version is
 * opened, before any query sees it.
 */
import type { Transaction } from 'dexie';
import { rowsAsChanges, type WholeFactRow } from '../history/change.ts';
import type {
  HistoryHeadRow,
  HistoryPersonRow,
  HistorySharedRow,
  HistorySyncRow,
  KeptSharedRow,
  HeadStateRow,
} from '../history/rows.ts';
import { keptShared } from '../history/shared-rows.ts';
import { keptFigures } from '../history/sync-figures.ts';
import { compactHeads, compactRows, headOfVersion12, type OldHeadRow } from '../history/upgrade.ts';
import { packRows } from '../history/packs.ts';
import { HEAD_STATE_KEY, packStates, statesOfVersion15 } from '../history/head-state.ts';
import type { HistoryWrittenRow } from '../history/written-rows.ts';
import { userSearchKeys, userSortName, type UserRecord } from '../../shared/records.ts';
import type { CachedTrainingAssignment } from './derived.ts';
import { openDueIso } from './derived.ts';

/** Nothing to migrate: version 1 starts empty and is filled by the first sync. */
export async function v1CreateCache(_tx: Transaction): Promise<void> {}

/** The derived fields of a cached user, from its own fields (search keys and sort name by the current folding rule). */
export function userDerivedFields(
  u: Pick<UserRecord, 'firstname' | 'lastname' | 'username' | 'employeeid'>,
): Pick<UserRecord, 'searchKeys' | 'sortName'> {
  return { searchKeys: userSearchKeys(u), sortName: userSortName(u) };
}

/**
 * Version 2: search keys became folded words (accent- and case-free, usernames
 * split at "." "_" "-"), and the sort name folded the same way. Every field the cache derives from a record is
 * recomputed on every existing row, so no row keeps a key of the old rule (the
 * sync's changed-only comparison would otherwise never rewrite it).
 */
export async function v2FoldSearchKeys(tx: Transaction): Promise<void> {
  await tx
    .table<UserRecord>('users')
    .toCollection()
    .modify((u) => {
      Object.assign(u, userDerivedFields(u));
    });
  await tx
    .table<CachedTrainingAssignment>('trainingAssignments')
    .toCollection()
    .modify((t) => {
      t.openDueIso = openDueIso(t);
    });
}

/**
 * Version 4: page fingerprints moved from the `syncCollections` rows (page
 * hashes only) to their own table (items' keys and hashes). The old hashes
 * are dropped: the next resync compares every page once and writes the new rows.
 */
export async function v4PageFingerprintTable(tx: Transaction): Promise<void> {
  await tx
    .table<{ pageFingerprints?: unknown }>('syncCollections')
    .toCollection()
    .modify((row) => {
      delete row.pageFingerprints;
    });
}

/**
 * Version 5: the coordinator's requirements get their table. Nothing to carry
 * over (no earlier version held requirements): it starts empty, and every
 * cached and queued row stays as it was.
 */
export async function v5RequirementsTable(_tx: Transaction): Promise<void> {}

/**
 * Version 7 (issue 38's size target): a person's history row holds what changed of them since their row before,
 * no longer their whole record (history/change.ts). Every row is rewritten in place, same id and sync; the
 * rebuild of any day gives what it gave.
 */
export async function v7HistoryChanges(tx: Transaction): Promise<void> {
  const rows = await tx.table<WholeFactRow, number>('historyPeople').toArray();
  if (rows.length > 0) await tx.table<HistoryPersonRow, number>('historyPeople').bulkPut(rowsAsChanges(rows));
}

/**
 * Version 9 (issue 38's size target): the people's rows packed by sync and bucket (history/packs.ts), their findings
 * and course names in the shorter encoding (history/upgrade.ts), and the heads in that encoding too; every day
 * rebuilds as before, and the next snapshot compares with heads of its own encoding (else every person would get a
 * row). The table of unpacked rows goes once this has run.
 */
export async function v9HistoryCompact(tx: Transaction): Promise<void> {
  const shared = await tx.table<HistorySharedRow, number>('historyShared').toArray();
  const heads = tx.table<HistoryHeadRow, number>('historyHeads');
  const rows = compactRows(await tx.table<HistoryPersonRow, number>('historyPeople').toArray(), shared);
  const bySeq = new Map<number, HistoryPersonRow[]>();
  for (const row of [...rows].sort((a, b) => a.seq - b.seq || (a.id ?? 0) - (b.id ?? 0)))
    bySeq.set(row.seq, (bySeq.get(row.seq) ?? []).concat(row));
  const packs = [...bySeq].flatMap(([seq, ofSync]) =>
    packRows(
      ofSync.map(({ id: _, seq: __, ...r }) => r),
      seq,
    ),
  );
  if (packs.length > 0) await tx.table('historyPacks').bulkAdd(packs);
  const kept = await tx.table<OldHeadRow, number>('historyHeads').toArray();
  if (kept.length > 0) await heads.bulkPut(compactHeads(kept, shared));
}

/**
 * Version 10: the people written since the last snapshot are kept on disk from now on; what was written before is
 * not known, so the first snapshot after the upgrade reads everyone.
 */
export async function v10HistoryWritten(tx: Transaction): Promise<void> {
  await tx.table<HistoryWrittenRow, number>('historyWritten').add({ by: 'before version 10' });
}

/** Version 11: each sync's figures rewritten as tuples of numbers (history/sync-figures.ts), the same figures. */
export async function v11HistoryFigures(tx: Transaction): Promise<void> {
  await tx
    .table<HistorySyncRow, number>('historySyncs')
    .toCollection()
    .modify((row) => {
      Object.assign(row, { figures: keptFigures(row.figures) });
    });
}

/** Version 12: the names and requirements rows rewritten deflated (history/shared-rows.ts), the same text. */
export async function v12HistorySharedDeflated(tx: Transaction): Promise<void> {
  const shared = tx.table<HistorySharedRow, number>('historyShared');
  const rows = await shared.toArray();
  if (rows.length > 0) await tx.table<KeptSharedRow, number>('historyShared').bulkPut(rows.map(keptShared));
}

/**
 * Version 13: each head's fact rewritten from gzipped JSON text to its compact form (history/heads.ts), the same fact;
 * the next snapshot compares with it and writes nobody who did not change.
 */
export async function v13HistoryHeadsCompact(tx: Transaction): Promise<void> {
  const heads = tx.table<HistoryHeadRow, number>('historyHeads');
  const kept = await heads.toArray();
  if (kept.length > 0) await heads.bulkPut(kept.map(headOfVersion12));
}

/**
 * Version 15: each head keeps its fact only; everyone's findings and next day go into one record
 * (history/head-state.ts), the same findings and days, so the next snapshot compares with the same heads.
 */
export async function v15HistoryHeadState(tx: Transaction): Promise<void> {
  const heads = await tx.table<HistoryHeadRow, number>('historyHeads').toArray();
  if (heads.length === 0) return;
  const states = new Map(heads.map(({ userid, findings, next }) => [userid, { findings, next }]));
  await tx.table('historyHeadState').put({ id: HEAD_STATE_KEY, ...packStates(states) });
  await tx.table('historyHeads').bulkPut(heads.map(({ userid, fact }) => ({ userid, fact })));
}

/**
 * Version 17: the record of everyone's findings and next day keeps each finding as its place in a table of keys
 * (history/head-state.ts), the same findings and days. A record already so (written by version 15's upgrade, which
 * now writes the new form, and runs first) is kept.
 */
export async function v17HistoryHeadStateKeys(tx: Transaction): Promise<void> {
  const table = tx.table<Partial<HeadStateRow> & { id: number }, number>('historyHeadState');
  const row = await table.get(HEAD_STATE_KEY);
  if (!row?.people || row.keys) return;
  await table.put({ id: HEAD_STATE_KEY, ...packStates(statesOfVersion15(row.people)) });
}
