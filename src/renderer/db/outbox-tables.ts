/** Dexie schema strings of the outbox feature's tables (included by the database module). */
export const OUTBOX_TABLE_SCHEMAS = {
  outbox: 'id, batchId, status, targetKey, seq, [targetKey+seq]',
  audit: '++seq, opId, batchId, at',
} as const;
