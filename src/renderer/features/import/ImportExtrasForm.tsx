/**
 * Besides their fields, what every person the import creates is given: a
 * profile group's access, a credential (with the dates and number it
 * requires), a course (with its due date).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { useCatalogNames } from '../../app/catalog-names.ts';
import { credentialOfSite } from '../../app/catalog.ts';
import type { ImportExtras } from './extras.ts';

const byName = <T,>(list: T[], name: (x: T) => string): T[] =>
  list.sort((a, b) => name(a).localeCompare(name(b)));

interface Props {
  siteid: number;
  extras: ImportExtras;
  onChange: (next: ImportExtras) => void;
}

/** The site's groups, every credential, and the site's courses, each by name. */
function useExtrasChoices(siteid: number) {
  const db = useActiveDb();
  const groups =
    useLiveQuery(
      async () =>
        db
          ? byName(
              (await db.groups.toArray()).filter((g) => g.siteid === siteid),
              (g) => g.groupname,
            )
          : [],
      [db, siteid],
    ) ?? [];
  const names = useCatalogNames(db);
  // the credentials of these people's site (each site has its own)
  const credentials = (
    useLiveQuery(
      async () => (db ? byName(await db.credentials.toArray(), (r) => r.credentialname) : []),
      [db],
    ) ?? []
  ).filter((r) => credentialOfSite(r, names, siteid));
  const courses =
    useLiveQuery(
      async () =>
        db
          ? byName(
              (await db.courses.toArray()).filter((r) => r.siteid === siteid),
              (r) => r.coursename,
            )
          : [],
      [db, siteid],
    ) ?? [];
  return { groups, credentials, courses };
}

type SetExtra = <K extends keyof ImportExtras>(key: K, value: ImportExtras[K] | undefined) => void;
type Choices = ReturnType<typeof useExtrasChoices>;

export function ImportExtrasForm({ siteid, extras, onChange }: Props) {
  const choices = useExtrasChoices(siteid);
  const set: SetExtra = (key, value) => {
    const next = { ...extras };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Give every new person</legend>
      <GroupChoice groups={choices.groups} extras={extras} set={set} />
      <CredentialChoice credentials={choices.credentials} extras={extras} set={set} />
      {extras.credential && <CredentialFields credential={extras.credential} set={set} />}
      <CourseChoice courses={choices.courses} extras={extras} set={set} />
    </fieldset>
  );
}

function GroupChoice({
  groups,
  extras,
  set,
}: {
  groups: Choices['groups'];
  extras: ImportExtras;
  set: SetExtra;
}) {
  return (
    <label>
      Access to the group{' '}
      <select
        value={extras.group?.groupid ?? -1}
        onChange={(e) => {
          const g = groups.find((x) => x.groupid === Number(e.target.value));
          set('group', g && { groupid: g.groupid, groupname: g.groupname });
        }}
      >
        <option value={-1}>(none)</option>
        {groups.map((g) => (
          <option key={g.groupid} value={g.groupid}>
            {g.groupname}
          </option>
        ))}
      </select>
    </label>
  );
}

function CredentialChoice({
  credentials,
  extras,
  set,
}: {
  credentials: Choices['credentials'];
  extras: ImportExtras;
  set: SetExtra;
}) {
  return (
    <label>
      The credential{' '}
      <select
        value={extras.credential?.credentialid ?? -1}
        onChange={(e) => {
          const r = credentials.find((x) => x.credentialid === Number(e.target.value));
          set(
            'credential',
            r && {
              credentialid: r.credentialid,
              credentialname: r.credentialname,
              required: {
                startdate: r.requiredstartdate,
                expirationdate: r.requiredexpirationdate,
                credentialnumber: r.requiredcredentialnum,
              },
              fields: {},
            },
          );
        }}
      >
        <option value={-1}>(none)</option>
        {credentials.map((r) => (
          <option key={r.credentialid} value={r.credentialid}>
            {r.credentialname}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The dates and number the chosen credential is given, each marked when the credential requires it. */
function CredentialFields({
  credential: c,
  set,
}: {
  credential: NonNullable<ImportExtras['credential']>;
  set: SetExtra;
}) {
  const setCredentialField = (field: 'startdate' | 'expirationdate' | 'credentialnumber', value: string) => {
    const fields = { ...c.fields };
    if (value) fields[field] = value;
    else delete fields[field];
    set('credential', { ...c, fields });
  };
  return (
    <>
      <label>
        Start date{c.required.startdate ? ' (required)' : ''}{' '}
        <input
          type="date"
          value={c.fields.startdate ?? ''}
          onChange={(e) => setCredentialField('startdate', e.target.value)}
        />
      </label>
      <label>
        Expiration date{c.required.expirationdate ? ' (required)' : ''}{' '}
        <input
          type="date"
          value={c.fields.expirationdate ?? ''}
          onChange={(e) => setCredentialField('expirationdate', e.target.value)}
        />
      </label>
      <label>
        Credential number{c.required.credentialnumber ? ' (required)' : ''}{' '}
        <input
          value={c.fields.credentialnumber ?? ''}
          onChange={(e) => setCredentialField('credentialnumber', e.target.value)}
        />
      </label>
    </>
  );
}

function CourseChoice({
  courses,
  extras,
  set,
}: {
  courses: Choices['courses'];
  extras: ImportExtras;
  set: SetExtra;
}) {
  return (
    <>
      <label>
        The course{' '}
        <select
          value={extras.course?.courseid ?? -1}
          onChange={(e) => {
            const r = courses.find((x) => x.courseid === Number(e.target.value));
            set('course', r && { courseid: r.courseid, coursename: r.coursename });
          }}
        >
          <option value={-1}>(none)</option>
          {courses.map((r) => (
            <option key={r.courseid} value={r.courseid}>
              {r.coursename}
            </option>
          ))}
        </select>
      </label>
      {extras.course && (
        <label>
          Due date{' '}
          <input
            type="date"
            value={extras.course.duedate ?? ''}
            onChange={(e) => {
              const { duedate: _old, ...course } = extras.course!;
              set('course', e.target.value ? { ...course, duedate: e.target.value } : course);
            }}
          />
        </label>
      )}
    </>
  );
}
