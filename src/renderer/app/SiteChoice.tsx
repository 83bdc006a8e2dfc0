/** The "Site" picker of the site the coordinator looks after (see site-choice.ts), with "All sites" first. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { SiteRecord } from '../../shared/records.ts';
import { useActiveDb, useSession } from './session.ts';
import { useSiteChoice } from './site-choice.ts';
import { compareText } from './catalog.ts';

export interface ChosenSite {
  /** the chosen site's id, null for every site (also while the sites load, or when the chosen one is no longer kept) */
  siteid: number | null;
  site: SiteRecord | null;
  sites: SiteRecord[];
  choose(siteid: number | null): void;
}

/** The site chosen in the active profile, checked against the sites on this laptop. */
export function useChosenSite(): ChosenSite {
  const db = useActiveDb();
  const profileId = useSession((s) => s.activeProfile?.id);
  const [stored, choose] = useSiteChoice(profileId);
  const sites =
    useLiveQuery(
      async () => (db ? (await db.sites.toArray()).sort((a, b) => compareText(a.sitename, b.sitename)) : []),
      [db],
    ) ?? [];
  const site = sites.find((s) => s.siteid === stored) ?? null;
  return { siteid: site?.siteid ?? null, site, sites, choose };
}

export function SiteChoice({ chosen }: { chosen: ChosenSite }) {
  return (
    <label>
      Site{' '}
      <select
        value={chosen.siteid ?? ''}
        onChange={(e) => chosen.choose(e.target.value ? Number(e.target.value) : null)}
      >
        <option value="">All sites</option>
        {chosen.sites.map((s) => (
          <option key={s.siteid} value={s.siteid}>
            {s.sitename}
          </option>
        ))}
      </select>
    </label>
  );
}
