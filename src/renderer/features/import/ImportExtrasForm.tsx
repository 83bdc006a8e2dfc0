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

// eslint-disable-next-line max-lines-per-function -- over 80 lines once Prettier unpacked it: to be split into named steps (issue 36)
export function ImportExtrasForm({ siteid, extras, onChange }: Props) {
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
  const c = extras.credential;
  const setCredentialField = (field: 'startdate' | 'expirationdate' | 'credentialnumber', value: string) => {
    if (!c) return;
    const fields = { ...c.fields };
    if (value) fields[field] = value;
    else delete fields[field];
    set('credential', { ...c, fields });
  };
  const set = <K extends keyof ImportExtras>(key: K, value: ImportExtras[K] | undefined) => {
    const next = { ...extras };
    if (value === undefined) delete next[key];
    else next[key] = value;
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Give every new person</legend>
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
      <label>
        The credential{' '}
        <select
          value={c?.credentialid ?? -1}
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
      {c && (
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
      )}
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
    </fieldset>
  );
}
