/**
 * One user: profile, e-mails, groups, access, credentials and training with
 * their state. Read from the cache; when online, the e-mails are fetched fresh
 * and cached for the next offline visit.
 */
import { personStatusMeaning } from '../../app/person-status.ts';
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { AppError } from '../../../shared/ipc.ts';
import { todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { credentialState, trainingState } from '../../app/compliance.ts';
import { formatDate, formatDateTime } from '../../app/format.ts';
import { emailsSource, NO_EMAILS } from './email-words.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE } from '../../app/words.ts';
import { ExpiryDate } from '../../components/ExpiryDate.tsx';
import { hrefFor } from '../../app/router.ts';
import { useSession } from '../../app/session.ts';
import { CredentialBadge, StatusText, TrainingBadge } from '../../components/Badges.tsx';
import { PendingMarker } from '../../components/PendingMarker.tsx';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { ErrorMessage } from '../../components/ErrorMessage.tsx';
import { cacheUserEmails, loadUserDetail } from './queries.ts';
import { DaysInput } from '../../components/DaysInput.tsx';
import { useSoonDaysBox } from '../../app/soon-window.ts';
import { credentialLabel, featureLabel, groupLabel } from '../../app/catalog.ts';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { EditCredentialAssignment, EditTrainingAssignment, EditUserForm } from '../bulk/RecordEdits.tsx';
import { PersonHistory } from './PersonHistory.tsx';

function useOnlineEmails(
  db: FieldbookDb,
  userid: number,
): { fetchedAt: string | null; error: AppError | null } {
  const api = useSession((s) => s.api);
  const online = useSession((s) => s.connection?.online === true);
  const [state, setState] = useState<{ userid: number; fetchedAt: string | null; error: AppError | null }>({
    userid,
    fetchedAt: null,
    error: null,
  });
  useEffect(() => {
    if (!api || !online || userid <= 0) return;
    let cancelled = false;
    void api['users:detail']({ userid }).then(async (result) => {
      if (cancelled) return;
      if (!result.ok) return setState({ userid, fetchedAt: null, error: result.error });
      await cacheUserEmails(db, result.value);
      if (!cancelled) setState({ userid, fetchedAt: result.value.fetchedAt, error: null });
    });
    return () => {
      cancelled = true;
    };
  }, [api, online, db, userid]);
  return state.userid === userid ? state : { fetchedAt: null, error: null };
}

export default function UserDetailView({ db, userid }: { db: FieldbookDb; userid: number }) {
  const pendingVersion = usePendingVersion();
  const detail = useLiveQuery(async () => loadUserDetail(db, userid), [db, userid, pendingVersion]);
  const emails = useOnlineEmails(db, userid);
  const names = useCatalogNames(db);
  const today = todayIso();

  if (detail === undefined) return <p role="status">Loading…</p>;
  if (detail === null) {
    return (
      <section className="view">
        <h1>User not found</h1>
        <p>
          This user is not in the cache. <a href={hrefFor('users')}>Back to users</a>
        </p>
      </section>
    );
  }
  const { user } = detail;
  return (
    <article className="view user-detail" aria-labelledby="user-heading">
      <nav aria-label="Breadcrumb">
        <a href={hrefFor('users')}>Users</a> › {user.firstname} {user.lastname}
      </nav>
      <h1 id="user-heading">
        {user.firstname} {user.lastname}{' '}
        <PendingMarker row={user} what={`${user.firstname} ${user.lastname}`} />
      </h1>
      <ProfileSection detail={detail} />
      <EmailsSection detail={detail} emails={emails} />
      <GroupsSection detail={detail} names={names} />
      <AccessSection detail={detail} names={names} />
      <CredentialsSection detail={detail} today={today} />
      <TrainingSection detail={detail} today={today} />
      <PersonHistory db={db} userid={userid} />
    </article>
  );
}

type Names = ReturnType<typeof useCatalogNames>;

function ProfileSection({ detail }: { detail: Detail }) {
  const { user } = detail;
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      {user.refreshedAt && (
        <p className="hint">
          Changes saved: read back from the site {formatDateTime(user.refreshedAt)}, after your changes were
          sent.
        </p>
      )}
      <dl className="profile">
        <dt>Username</dt>
        <dd>{user.username}</dd>
        <dt>Employee ID</dt>
        <dd>{user.employeeid || '—'}</dd>
        <dt>Status</dt>
        <dd>
          <StatusText value={user.status} /> <PersonStatusMeaning status={user.status} />
        </dd>
        <dt>User type</dt>
        <dd>{user.usertype || '—'}</dd>
        <dt>Site</dt>
        <dd>{detail.sitename ?? NOT_HERE.site}</dd>
        <dt>User ID</dt>
        <dd>{user.userid > 0 ? user.userid : 'Given when the site creates this person'}</dd>
      </dl>
      {user.userid > 0 && (
        <details className="edit">
          <summary>Edit this user</summary>
          <EditUserForm key={`${user.userid}:${user.status}:${user.username}`} user={user} />
        </details>
      )}
    </section>
  );
}

function EmailsSection({ detail, emails }: { detail: Detail; emails: ReturnType<typeof useOnlineEmails> }) {
  return (
    <section aria-labelledby="emails-heading">
      <h2 id="emails-heading">E-mails</h2>
      <ErrorMessage error={emails.error} />
      {detail.emails.length === 0 ? (
        <p>{NO_EMAILS}</p>
      ) : (
        <ul>
          {detail.emails.map((e) => (
            <li key={e.emailid}>
              {e.email} {e.isprimary ? '(primary)' : ''} <StatusText value={e.status} />{' '}
              <PendingMarker row={e} what={e.email} />
            </li>
          ))}
        </ul>
      )}
      <p className="hint">{emailsSource(emails.fetchedAt)}</p>
    </section>
  );
}

function GroupsSection({ detail, names }: { detail: Detail; names: Names }) {
  return (
    <section aria-labelledby="groups-heading">
      <h2 id="groups-heading">Profile groups</h2>
      {detail.groups.length === 0 ? (
        <p>Member of no cached group.</p>
      ) : (
        <ul>
          {detail.groups.map((g) => (
            <li key={g.groupid}>{groupLabel(g, names)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function AccessSection({ detail, names }: { detail: Detail; names: Names }) {
  return (
    <section aria-labelledby="access-heading">
      <h2 id="access-heading">Access</h2>
      <h3>Supervises groups</h3>
      {detail.accessGroups.length === 0 ? (
        <p>No group access.</p>
      ) : (
        <ul>
          {detail.accessGroups.map((g) => (
            <li key={g.groupid}>
              {groupLabel(g, names)} <PendingMarker row={g} what={`access to ${g.groupname}`} />
            </li>
          ))}
        </ul>
      )}
      <h3>Features</h3>
      {detail.features.length === 0 ? (
        <p>No feature access.</p>
      ) : (
        <ul>
          {detail.features.map((f) => (
            <li key={f.id}>
              {featureLabel(f, names)}{' '}
              <PendingMarker row={f} what={`access to ${f.moduleName} — ${f.functionName}`} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

type Detail = NonNullable<Awaited<ReturnType<typeof loadUserDetail>>>;

function CredentialsSection({ detail, today }: { detail: Detail; today: string }) {
  const [expiringDays, setExpiringDays] = useSoonDaysBox();
  const { user } = detail;
  return (
    <section aria-labelledby="credentials-heading">
      <h2 id="credentials-heading">Credentials</h2>
      <DaysInput label="Expiring within (days)" value={expiringDays} onChange={setExpiringDays} />
      {detail.credentials.length === 0 ? (
        <p>No credential assigned.</p>
      ) : (
        <table>
          <caption className="visually-hidden">
            Credentials of {user.firstname} {user.lastname}
          </caption>
          <thead>
            <tr>
              <th scope="col">Credential</th>
              <th scope="col">State</th>
              <th scope="col">Start</th>
              <th scope="col">Expires</th>
              <th scope="col">Number</th>
              <th scope="col">Status</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            {detail.credentials.map(({ assignment: a, credential: c }) => (
              <tr key={a.id}>
                <td>
                  {c ? credentialLabel(c) : NOT_HERE.credential}{' '}
                  <PendingMarker row={a} what={c?.credentialname ?? NOT_HERE.credential} />
                </td>
                <td>
                  <CredentialBadge
                    state={credentialState(a, today, expiringDays, {
                      start: c?.requiredstartdate,
                      expiration: c ? c.requiredexpirationdate : true,
                    })}
                  />
                </td>
                <td>{formatDate(a.startIso)}</td>
                <td>
                  <ExpiryDate iso={a.expirationIso} today={today} />
                </td>
                <td>{a.credentialnumber || '—'}</td>
                <td>
                  <StatusText value={a.status} />
                </td>
                <td>
                  {a.pendingChange !== 'create' && a.pendingChange !== 'delete' && (
                    <details className="edit">
                      <summary>
                        Edit
                        <span className="visually-hidden"> {c?.credentialname ?? NOT_HERE.credential}</span>
                      </summary>
                      <EditCredentialAssignment
                        key={`${a.id}:${a.expirationIso}:${a.startIso}`}
                        assignment={a}
                        label={c?.credentialname ?? 'Credential'}
                      />
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function TrainingSection({ detail, today }: { detail: Detail; today: string }) {
  const [dueDays, setDueDays] = useSoonDaysBox();
  const { user } = detail;
  return (
    <section aria-labelledby="training-heading">
      <h2 id="training-heading">Training</h2>
      <DaysInput label="Due soon within (days)" value={dueDays} onChange={setDueDays} />
      {detail.training.length === 0 ? (
        <p>No training assigned.</p>
      ) : (
        <table>
          <caption className="visually-hidden">
            Training of {user.firstname} {user.lastname}
          </caption>
          <thead>
            <tr>
              <th scope="col">Course</th>
              <th scope="col">State</th>
              <th scope="col">Due</th>
              <th scope="col">Course status</th>
              <th scope="col">Assigned by</th>
              <th scope="col">Edit</th>
            </tr>
          </thead>
          <tbody>
            {detail.training.map((t) => (
              <tr key={t.transcriptid}>
                <td>
                  {t.course_name} <PendingMarker row={t} what={t.course_name} />
                </td>
                <td>
                  <TrainingBadge state={trainingState(t, today, dueDays)} />
                </td>
                <td>{formatDate(t.dueIso)}</td>
                <td>
                  <StatusText value={t.course_status} />
                </td>
                <td>{t.assignment_method}</td>
                <td>
                  {t.pendingChange !== 'create' && t.pendingChange !== 'delete' && (
                    <details className="edit">
                      <summary>
                        Edit
                        <span className="visually-hidden">
                          {' '}
                          {t.course_name || NOT_HERE.course}
                          {t.due_date ? ` (due ${formatDate(t.dueIso)})` : ''}
                        </span>
                      </summary>
                      <EditTrainingAssignment
                        key={`${t.transcriptid}:${t.dueIso}:${t.course_status}`}
                        assignment={t}
                        label={t.course_name}
                      />
                    </details>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** "Offline" beside its meaning: the platform's word, not this laptop's Work offline. */
function PersonStatusMeaning({ status }: { status: string }) {
  const meaning = personStatusMeaning(status);
  return meaning && status.trim().toLowerCase() !== 'active' ? <span className="hint">{meaning}</span> : null;
}
