/** Finding and opening the app's cache from the benchmark page (same origin as the app). */
import { DB_NAME_PREFIX, openFieldbookDb, type FieldbookDb } from '../../src/renderer/db/index.ts';

/** The app's database with the most users: the one a full sync filled. */
export async function openCache(): Promise<FieldbookDb> {
  const names = (await indexedDB.databases())
    .map((d) => d.name ?? '')
    .filter((n) => n.startsWith(DB_NAME_PREFIX));
  let best: { db: FieldbookDb; users: number } | null = null;
  for (const name of names) {
    const db = openFieldbookDb(name);
    const users = await db.users.count();
    if (!best || users > best.users) {
      best?.db.close();
      best = { db, users };
    } else db.close();
  }
  if (!best || best.users === 0)
    throw new Error(
      `No filled Fieldbook cache in this browser profile (databases: ${names.join(', ') || 'none'}).`,
    );
  return best.db;
}
