/** The site and profile-category names of the active cache, live (small tables, read whole). */
import { useLiveQuery } from 'dexie-react-hooks';
import type { FieldbookDb } from '../db/index.ts';
import { catalogNames, type CatalogNames } from './catalog.ts';

export async function loadCatalogNames(db: FieldbookDb): Promise<CatalogNames> {
  const [sites, categories, credentialCategories] = await Promise.all([
    db.sites.toArray(),
    db.profileCategories.toArray(),
    db.credentialCategories.toArray(),
  ]);
  return catalogNames(sites, categories, credentialCategories);
}

const EMPTY: CatalogNames = { sites: new Map(), profileCategories: new Map() };

export function useCatalogNames(db: FieldbookDb | null): CatalogNames {
  return useLiveQuery(() => (db ? loadCatalogNames(db) : EMPTY), [db]) ?? EMPTY;
}
