/**
 * "What it means for compliance": who became non-compliant and who is compliant again
 * over a period's changes, and who the platform removed. Opens "Since last sync" and
 * the dashboard, before the changes by kind. Offline: the change log and the cache.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { UserRecord } from '../../../shared/records.ts';
import { todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { useActiveDb } from '../../app/session.ts';
import { formatCount, formatDate } from '../../app/format.ts';
import { hrefFor } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import { useReportChoices } from '../report/choices.ts';
import type { Finding } from '../report/model.ts';
import {
  complianceImpact,
  foldRemovals,
  type ComplianceImpact as Impact,
  type ImpactEntry,
  type ImpactRecords,
  type RemovedPerson,
} from './impact.ts';
import type { DatedChange } from './view-model.ts';

/** The cache's records of the people a period's changes concern (a few thousand at most: the log lists 5,000). */
async function loadImpactRecords(db: FieldbookDb, changes: readonly DatedChange[]): Promise<ImpactRecords> {
  const ids = [...new Set(changes.map((c) => c.u))];
  const [people, memberships, assignments, training, requirements, credentials, courses] = await Promise.all([
    db.users.bulkGet(ids),
    db.groupMembers.where('userid').anyOf(ids).toArray(),
    db.credentialAssignments.where('userid').anyOf(ids).toArray(),
    db.trainingAssignments.where('userid').anyOf(ids).toArray(),
    db.requirements.toArray(),
    db.credentials.toArray(),
    db.courses.toArray(),
  ]);
  const found = people.filter((p): p is UserRecord => p !== undefined);
  return { people: found, memberships, assignments, training, requirements, credentials, courses };
}

export interface ImpactScope {
  /** the site chosen (null: every site): people now at it, removed people who were */
  siteid: number | null;
  /** members of the group chosen (null: any) */
  members?: ReadonlySet<number> | null;
}

const inScope = (scope: ImpactScope, userid: number, siteid: number | undefined) =>
  (scope.siteid === null || siteid === scope.siteid) && (!scope.members || scope.members.has(userid));

interface Shown {
  impact: Impact;
  removed: RemovedPerson[];
  hasRequirements: boolean;
}

/** The impact of a period's changes (newest first) for the site and group chosen; undefined while read. */
function useImpact(changes: readonly DatedChange[], sinceIso: string, scope: ImpactScope): Shown | undefined {
  const db = useActiveDb();
  const statuses = useReportChoices((s) => s.statuses);
  const today = todayIso();
  const computed = useLiveQuery(async () => {
    if (!db) return undefined;
    const { rest, removed } = foldRemovals(changes);
    const records = await loadImpactRecords(db, rest);
    const sinceDay = sinceIso ? sinceIso.slice(0, 10) : today;
    const impact = complianceImpact(rest, records, { sinceDay, today, statuses });
    return { impact, removed: [...removed.values()], hasRequirements: records.requirements.length > 0 };
  }, [db, changes, sinceIso, today, statuses]);
  if (!computed) return undefined;
  const keep = (e: ImpactEntry) => inScope(scope, e.userid, e.siteid);
  return {
    impact: {
      nonCompliant: computed.impact.nonCompliant.filter(keep),
      compliant: computed.impact.compliant.filter(keep),
    },
    removed: computed.removed.filter((r) => inScope(scope, r.userid, r.siteid)),
    hasRequirements: computed.hasRequirements,
  };
}

/** "First Aid Level 2 missing", "Forklift expired on Feb 20, 2026", "Induction overdue since Feb 1, 2026". */
function findingWords(f: Finding): string {
  if (f.type === 'Expired') return `${f.item} expired on ${formatDate(f.date)}`;
  if (f.type === 'Training overdue') return `${f.item} overdue since ${formatDate(f.date)}`;
  return `${f.item} missing`;
}

/** "Removed (5 credentials, 2 trainings)": what went with a removed person. */
export function removalWords(r: RemovedPerson): string {
  const records = [
    r.credentials ? plural(r.credentials, 'credential') : '',
    r.trainings ? plural(r.trainings, 'training') : '',
    r.access ? plural(r.access, 'access right') : '',
  ].filter(Boolean);
  return `Removed${records.length ? ` (${records.join(', ')})` : ''}`;
}

/** "Eli Park removed (5 credentials, 2 trainings)" */
const removedWords = (r: RemovedPerson) => `${r.name || 'A person'} ${removalWords(r).toLowerCase()}`;

const personName = (e: ImpactEntry) => `${e.firstname} ${e.lastname}`.trim() || e.username;

function EntryLine({
  entry,
  now,
  siteName,
}: {
  entry: ImpactEntry;
  now: boolean;
  siteName: (id: number) => string;
}) {
  const what = now
    ? entry.findings.map(findingWords).join(', ')
    : `now meets ${entry.findings.map((f) => f.item).join(', ')}`;
  return (
    <li>
      <a href={hrefFor('users', entry.userid)}>{personName(entry)}</a>
      {entry.isNew ? ' (new)' : ''} · {siteName(entry.siteid)}: {what}
    </li>
  );
}

/** One list of the impact, its first `limit` entries until asked for all. */
function ImpactList<T>({
  title,
  items,
  limit,
  render,
}: {
  title: string;
  items: readonly T[];
  limit: number;
  render: (item: T) => React.ReactNode;
}) {
  const [all, setAll] = useState(false);
  if (items.length === 0) return null;
  const shown = all ? items : items.slice(0, limit);
  return (
    <div className="impact-list">
      <h3>
        {title} ({formatCount(items.length)})
      </h3>
      <ul aria-label={title}>{shown.map(render)}</ul>
      {shown.length < items.length && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {formatCount(items.length)}
        </button>
      )}
    </div>
  );
}

export interface ComplianceImpactProps {
  /** the period's changes, newest first (changesSince) */
  changes: readonly DatedChange[];
  /** when the sync the period starts from ended (ISO), '' when not known */
  sinceIso: string;
  scope: ImpactScope;
  siteName: (siteid: number) => string;
  /** entries shown per list before "Show all" */
  limit?: number;
}

export function ComplianceImpact({ changes, sinceIso, scope, siteName, limit = 10 }: ComplianceImpactProps) {
  const shown = useImpact(changes, sinceIso, scope);
  const nothing =
    shown && shown.impact.nonCompliant.length + shown.impact.compliant.length + shown.removed.length === 0;
  return (
    <section className="impact" aria-labelledby="impact-heading">
      <h2 id="impact-heading">What it means for compliance</h2>
      {shown === undefined ? (
        <p className="muted">Reading who is affected…</p>
      ) : (
        <>
          {!shown.hasRequirements && (
            <p className="muted">
              You have set no requirements: only expired credentials and overdue training count here.{' '}
              <a href={hrefFor('requirements')}>Set requirements</a>
            </p>
          )}
          {nothing && <p>Nobody became non-compliant, and nobody became compliant again.</p>}
          <ImpactList
            title="Became non-compliant"
            items={shown.impact.nonCompliant}
            limit={limit}
            render={(e) => <EntryLine key={e.userid} entry={e} now siteName={siteName} />}
          />
          <ImpactList
            title="Compliant again"
            items={shown.impact.compliant}
            limit={limit}
            render={(e) => <EntryLine key={e.userid} entry={e} now={false} siteName={siteName} />}
          />
          <ImpactList
            title="Removed from the platform"
            items={shown.removed}
            limit={limit}
            render={(r) => (
              <li key={r.userid}>
                {removedWords(r)}
                {r.siteid !== undefined ? ` · ${siteName(r.siteid)}` : ''}
              </li>
            )}
          />
        </>
      )}
    </section>
  );
}
