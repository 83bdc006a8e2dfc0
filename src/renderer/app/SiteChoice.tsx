/** The "Site" picker of the site the coordinator looks after (see site-choice.ts), with "All sites" first. */
import { useLiveQuery } from 'dexie-react-hooks';
import type { SiteRecord } from '../../shared/records.ts';
import { useActiveDb, useSession } from './session.ts';
import { useSiteChoice } from './site-choice.ts';
import { compareText } from './catalog.ts';

const NO_SITES: SiteRecord[] = [];

export interface ChosenSite {
  /** the chosen site's id, null for every site (also when the chosen one is no longer kept) */
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
  const read = useLiveQuery(
    async () => (db ? (await db.sites.toArray()).sort((a, b) => compareText(a.sitename, b.sitename)) : []),
    [db],
  );
  const sites = read ?? NO_SITES;
  const site = sites.find((s) => s.siteid === stored) ?? null;
  // while the sites are read, the stored choice: a list does not show every site first, then one
  return { siteid: read === undefined ? stored : (site?.siteid ?? null), site, sites, choose };
}

/** The one site the views need when they are of a single site: the chosen one, else the first by name. */
export function oneSite(chosen: Pick<ChosenSite, 'siteid' | 'sites'>): number | null {
  return chosen.siteid ?? chosen.sites[0]?.siteid ?? null;
}

export interface SiteChoiceProps {
  chosen: ChosenSite;
  /** false where a view is of one site only (the requirements, a site's report): no "All sites" */
  everySite?: boolean;
  /** also told of a choice (a view resetting what belonged to the site before) */
  onChoose?: (siteid: number | null) => void;
}

/** The one site picker of every view: choosing here chooses for the dashboard, the lists and the pickers. */
export function SiteChoice({ chosen, everySite = true, onChoose }: SiteChoiceProps) {
  return (
    <label>
      Site{' '}
      <select
        value={(everySite ? chosen.siteid : oneSite(chosen)) ?? ''}
        onChange={(e) => {
          const next = e.target.value ? Number(e.target.value) : null;
          chosen.choose(next);
          onChoose?.(next);
        }}
      >
        {everySite && <option value="">All sites</option>}
        {chosen.sites.map((s) => (
          <option key={s.siteid} value={s.siteid}>
            {s.sitename}
          </option>
        ))}
      </select>
    </label>
  );
}
