/**
 * Upgrade functions of the database, one named function per schema version that
 * needs one, referenced from db/index.ts. Version 1 creates the tables and needs
 * no data migration; later versions add theirs here, e.g.
 *   export async function v2AddCourseNames(tx: Transaction) { ... }
 */
import type { Transaction } from 'dexie';

/** Nothing to migrate: version 1 starts empty and is filled by the first sync. */
export async function v1CreateCache(_tx: Transaction): Promise<void> {}
