/** One group's members or supervisors: a list of people to select and act on (bulk actions). */
import { useCallback, useState } from 'react';
import { useLiveQueryAbout } from '../../app/live-query.ts';
import type { UserRecord } from '../../../shared/records.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import { plural } from '../../app/words.ts';
import { pendingByPerson, personMark, type PendingMark } from '../../app/overlays.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { StatusText } from '../../components/Badges.tsx';
import { WithPendingMark } from '../../components/PendingMarker.tsx';
import { useLiveQuery } from 'dexie-react-hooks';
import { SelectionBar, useRowSelection } from '../../components/SelectionBar.tsx';
import { groupMembersOf, type GroupWithSupervisors } from './queries.ts';

type Person = UserRecord & PendingMark;
type Show = 'members' | 'supervisors';
const NOBODY: Person[] = [];
const personOf = (u: Person) => u.userid;

/** `byPerson`: the pending changes about each person of every kind, marked on their row. */
const columnsOf = (byPerson: ReadonlyMap<number, readonly string[]> | undefined): Column<Person>[] => [
  {
    id: 'name',
    header: 'Name',
    width: 'minmax(12rem, 1.5fr)',
    render: (u) => (
      <WithPendingMark
        row={personMark(u, byPerson)}
        what={`${u.firstname} ${u.lastname}`}
        title={`${u.lastname}, ${u.firstname}`}
      >
        <a href={hrefFor('users', u.userid)} tabIndex={-1}>
          {u.lastname}, {u.firstname}
        </a>
      </WithPendingMark>
    ),
  },
  { id: 'username', header: 'Username', width: 'minmax(8rem, 1fr)', render: (u) => u.username },
  { id: 'employeeid', header: 'Employee ID', width: 'minmax(6rem, 1fr)', render: (u) => u.employeeid },
  { id: 'status', header: 'Status', width: '7rem', render: (u) => <StatusText value={u.status} /> },
];

export function GroupPeople({ db, group }: { db: FieldbookDb; group: GroupWithSupervisors }) {
  const [show, setShow] = useState<Show>('members');
  const pendingVersion = usePendingVersion();
  const { groupid, groupname } = group.group;
  const load = useCallback(
    async (): Promise<Person[]> =>
      show === 'members'
        ? groupMembersOf(db, groupid)
        : group.supervisors.filter((u) => u.pendingChange !== 'delete'),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- pendingVersion: pending edits change who is listed
    [db, groupid, group, show, pendingVersion],
  );
  const people = useLiveQueryAbout([db, groupid, show], load, [load]);
  const byPerson = useLiveQuery(() => pendingByPerson(db), [db, pendingVersion]);
  const loadMatching = useCallback(async () => (await load()).map(personOf), [load]);
  const selection = useRowSelection(people ?? NOBODY, personOf, loadMatching);
  const what = show === 'members' ? 'Members' : 'Supervisors';
  return (
    <section className="panel" aria-labelledby="group-people-heading">
      <h2 id="group-people-heading">
        {what} of {groupname} ({group.context})
      </h2>
      <div className="toolbar">
        <label>
          Show
          <select value={show} onChange={(e) => setShow(e.target.value as Show)}>
            <option value="members">Members</option>
            <option value="supervisors">Supervisors (access over the group)</option>
          </select>
        </label>
        <button type="button" onClick={() => navigate('access')}>
          Close
        </button>
        <p role="status" className="count">
          {people ? plural(people.length, 'person', 'people') : 'Loading…'}
        </p>
      </div>
      <SelectionBar
        store={selection.store}
        matchCount={people?.length}
        loadMatching={loadMatching}
        preset={show === 'supervisors' ? { type: 'groupAccess', choice: groupid } : undefined}
      />
      <VirtualGrid
        label={`${what} of ${groupname}`}
        rows={people ?? NOBODY}
        rowKey={personOf}
        columns={columnsOf(byPerson)}
        size="short"
        {...selection.grid}
        rowLabel={(u) => `${u.lastname}, ${u.firstname}`}
        onActivate={(u) => navigate('users', u.userid)}
        loading={people === undefined}
        emptyText={
          show === 'members'
            ? 'This group has no members in the cache.'
            : 'Nobody has access over this group.'
        }
      />
    </section>
  );
}
