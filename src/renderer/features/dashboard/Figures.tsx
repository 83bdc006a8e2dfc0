/**
 * The dashboard's figures, each a link to the list it counts (counted by that
 * list's own query): overdue training, expired credentials, credentials expiring
 * this week and within the "soon" window, people by status.
 */
import type { MouseEvent } from 'react';
import { formatCount } from '../../app/format.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { usersViewStore } from '../users/view-store.ts';
import type { AttentionFigures } from './queries.ts';

export function FigureLink({
  href,
  value,
  label,
  onOpen,
}: {
  href: string;
  value: number;
  label: string;
  onOpen?: (e: MouseEvent) => void;
}) {
  return (
    <a className="figure" href={href} onClick={onOpen}>
      <span className="figure-value">{formatCount(value)}</span> <span className="figure-label">{label}</span>
    </a>
  );
}

/** The route words that keep a list to one site (`…/site/3`), none for every site. */
export function siteParams(siteid: number | null): (string | number)[] {
  return siteid === null ? [] : ['site', siteid];
}

/** The overdue training of every course, of one site's people when one is chosen. */
export function overdueHref(siteid: number | null): string {
  return siteid === null ? hrefFor('training') : hrefFor('training', 'overdue', ...siteParams(siteid));
}

export function AttentionFiguresList({
  figures,
  soonDays,
  siteid,
}: {
  figures: AttentionFigures | undefined;
  soonDays: number;
  siteid: number | null;
}) {
  if (!figures) return <p role="status">Loading…</p>;
  const site = siteParams(siteid);
  return (
    <ul className="figures" aria-label="Needs attention">
      <li>
        <FigureLink
          href={overdueHref(siteid)}
          value={figures.overdue}
          label="overdue training assignments (all courses)"
        />
      </li>
      <li>
        <FigureLink
          href={hrefFor('credentials', 'expired', ...site)}
          value={figures.expired}
          label="expired credentials"
        />
      </li>
      <li>
        <FigureLink
          href={hrefFor('credentials', 'expiring', 7, ...site)}
          value={figures.expiringWeek}
          label="credentials expiring within 7 days"
        />
      </li>
      {soonDays !== 7 && (
        <li>
          <FigureLink
            href={hrefFor('credentials', 'expiring', soonDays, ...site)}
            value={figures.expiringSoon}
            label={`credentials expiring within ${formatCount(soonDays)} days`}
          />
        </li>
      )}
    </ul>
  );
}

/**
 * Shows the Users list filtered to one status and site (its count line then shows the figure): a slice of the chart,
 * or its key.
 */
export function showUsersWithStatus(status: string, siteid: number | null): void {
  usersViewStore.setState({ text: '', filters: siteid === null ? { status } : { status, siteid } });
  navigate('users');
}

/** The key's link to the Users list filtered to one status. */
export function openUsersWithStatus(status: string, siteid: number | null) {
  return (e: MouseEvent) => {
    e.preventDefault();
    showUsersWithStatus(status, siteid);
  };
}
