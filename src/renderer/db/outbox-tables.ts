/**
 * Dexie schema strings of the outbox feature's tables (included by the database module); declared in
 * src/shared/outbox.ts so the replay queue can open them anywhere.
 */
export { OUTBOX_TABLE_SCHEMAS } from '../../shared/outbox.ts';
