/**
 * A person's history on their page, from this laptop's syncs (history/person.ts):
 * each credential's validity periods, a renewal in place included, and each
 * finding with when a sync first saw it and when one saw it resolved.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import type { FieldbookDb } from '../../db/index.ts';
import { formatDate } from '../../app/format.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';
import {
  loadPersonHistory,
  type FindingSpan,
  type PersonHistory as History,
  type ValidityPeriod,
} from '../../history/person.ts';

interface Names {
  credential: (id: number) => string;
  item: (itemKey: string) => string;
}

async function loadNames(db: FieldbookDb): Promise<Names> {
  const [credentials, courses] = await Promise.all([db.credentials.toArray(), db.courses.toArray()]);
  const credential = (id: number) =>
    credentials.find((c) => c.credentialid === id)?.credentialname ?? NOT_HERE.credential;
  const course = (id: number) => courses.find((c) => c.courseid === id)?.coursename ?? NOT_HERE.course;
  return {
    credential,
    item: (key) => {
      const id = Number(key.slice(key.indexOf(':') + 1));
      return key.startsWith('course:') ? course(id) : credential(id);
    },
  };
}

const dateOr = (iso: string, none: string) => (iso ? formatDate(iso) : none);

const NOT_FOLLOWED = 'the site was no longer kept on this laptop';

function seenUntil(p: ValidityPeriod): string {
  if (!p.seenUntil) return 'still held';
  return p.unfollowed
    ? `${formatDate(p.seenUntil)}, when ${NOT_FOLLOWED}`
    : `replaced ${formatDate(p.seenUntil)}`;
}

function resolvedOf(f: FindingSpan): string {
  if (f.resolved) return formatDate(f.resolved);
  return f.unfollowed ? `Not known: ${NOT_FOLLOWED} on ${formatDate(f.unfollowed)}` : 'Not resolved';
}

function Periods({ history, names }: { history: History; names: Names }) {
  return (
    <table>
      <caption>Credentials over time</caption>
      <thead>
        <tr>
          <th scope="col">Credential</th>
          <th scope="col">Valid from</th>
          <th scope="col">Expires</th>
          <th scope="col">Seen by the syncs</th>
        </tr>
      </thead>
      <tbody>
        {history.periods.map((p) => (
          <tr key={`${p.assignment}@${p.seenFrom}`}>
            <td>{names.credential(p.credentialid)}</td>
            <td>{dateOr(p.start, 'No start date')}</td>
            <td>{dateOr(p.expiration, 'Never expires')}</td>
            <td>
              {formatDate(p.seenFrom)} – {seenUntil(p)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Findings({ history, names }: { history: History; names: Names }) {
  return (
    <table>
      <caption>Findings over time</caption>
      <thead>
        <tr>
          <th scope="col">Finding</th>
          <th scope="col">First seen</th>
          <th scope="col">Resolved</th>
        </tr>
      </thead>
      <tbody>
        {history.findings.map((f) => (
          <tr key={`${f.type}|${f.itemKey}@${f.appeared}`}>
            <td>
              {f.type}: {names.item(f.itemKey)}
            </td>
            <td>{formatDate(f.appeared)}</td>
            <td>{resolvedOf(f)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function PersonHistory({ db, userid }: { db: FieldbookDb; userid: number }) {
  const history = useLiveQuery(() => loadPersonHistory(db, userid), [db, userid]);
  const names = useLiveQuery(() => loadNames(db), [db]);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {!history || !names ? (
        <p role="status">Loading…</p>
      ) : history.periods.length === 0 && history.findings.length === 0 ? (
        <p>Nothing kept yet: the history starts with this laptop's first complete sync.</p>
      ) : (
        <>
          <p>From this laptop's syncs: what each sync saw, not what happened between them.</p>
          {history.periods.length > 0 && <Periods history={history} names={names} />}
          {history.findings.length > 0 && <Findings history={history} names={names} />}
        </>
      )}
    </section>
  );
}
