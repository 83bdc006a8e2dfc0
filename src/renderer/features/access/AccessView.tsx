/** Groups and features with the supervisors who hold access to them. */
import { useLiveQuery } from 'dexie-react-hooks';
import { useActiveDb } from '../../app/session.ts';
import { usePendingVersion } from '../../outbox/runtime.ts';
import { hrefFor, navigate } from '../../app/router.ts';
import type { RouteProps } from '../../app/routes.tsx';
import { GroupPeople } from './GroupPeople.tsx';
import { formatCount } from '../../app/format.ts';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { tableOf, type ExportColumn } from '../../app/export-list.ts';
import { PendingMarker } from '../../components/PendingMarker.tsx';
import {
  featuresWithHolders,
  groupsWithSupervisors,
  type FeatureWithHolders,
  type GroupWithSupervisors,
  type Holder,
  type HolderCount,
} from './queries.ts';

function People({ users }: { users: Holder[] }) {
  if (users.length === 0) return <span className="muted">Nobody</span>;
  return (
    <span className="people">
      {users.map((u, i) => (
        <span key={u.userid}>
          {i > 0 && ', '}
          <a href={hrefFor('users', u.userid)} tabIndex={-1}>
            {u.firstname} {u.lastname}
          </a>
          {u.pendingOps && (
            <>
              {' '}
              <PendingMarker row={u} what={`access of ${u.firstname} ${u.lastname}`} />
            </>
          )}
        </span>
      ))}
    </span>
  );
}

/** A holder count as it will be once the outbox is sent, marked when pending grants or revokes change it. */
function Count({ value }: { value: HolderCount }) {
  if (!value.pending) return <>{formatCount(value.count)}</>;
  const change =
    value.delta === 0
      ? 'pending'
      : `${value.delta > 0 ? '+' : '−'}${formatCount(Math.abs(value.delta))} pending`;
  return (
    <>
      {formatCount(value.count)}{' '}
      <span className="badge pending" title="Counted as it will be once the Outbox is sent">
        {change}
      </span>
    </>
  );
}

const groupColumns: Column<GroupWithSupervisors>[] = [
  {
    id: 'group',
    header: 'Group',
    width: 'minmax(10rem, 1.5fr)',
    render: (g) => (
      <a
        href={hrefFor('access', 'group', g.group.groupid)}
        tabIndex={-1}
        title="Show its members and supervisors"
      >
        {g.group.groupname}
      </a>
    ),
  },
  { id: 'site', header: 'Site · category', width: 'minmax(9rem, 1.2fr)', render: (g) => g.context },
  { id: 'members', header: 'Members', width: '7rem', render: (g) => formatCount(g.group.usercount) },
  { id: 'access', header: 'With access', width: '8rem', render: (g) => <Count value={g.supervisorCount} /> },
  {
    id: 'supervisors',
    header: 'Supervisors',
    width: 'minmax(12rem, 3fr)',
    render: (g) => <People users={g.supervisors} />,
  },
];

const featureColumns: Column<FeatureWithHolders>[] = [
  { id: 'module', header: 'Feature', width: 'minmax(8rem, 1fr)', render: (f) => f.feature.moduleName },
  { id: 'function', header: 'Function', width: 'minmax(8rem, 1fr)', render: (f) => f.feature.functionName },
  { id: 'site', header: 'Site', width: 'minmax(7rem, 1fr)', render: (f) => f.site },
  { id: 'access', header: 'With access', width: '8rem', render: (f) => <Count value={f.holderCount} /> },
  {
    id: 'holders',
    header: 'Supervisors',
    width: 'minmax(12rem, 3fr)',
    render: (f) => <People users={f.holders} />,
  },
];

const people = (users: Holder[]) =>
  users.map((u) => `${u.lastname}, ${u.firstname} (${u.username})`).join('; ');

const groupExportColumns: ExportColumn<GroupWithSupervisors>[] = [
  { header: 'Group', cell: (g) => g.group.groupname },
  { header: 'Site · category', cell: (g) => g.context },
  { header: 'Members', cell: (g) => g.group.usercount },
  { header: 'With access', cell: (g) => g.supervisorCount.count },
  { header: 'Supervisors', cell: (g) => people(g.supervisors) },
];

const featureExportColumns: ExportColumn<FeatureWithHolders>[] = [
  { header: 'Feature', cell: (f) => f.feature.moduleName },
  { header: 'Function', cell: (f) => f.feature.functionName },
  { header: 'Site', cell: (f) => f.site },
  { header: 'With access', cell: (f) => f.holderCount.count },
  { header: 'Supervisors', cell: (f) => people(f.holders) },
];

export default function AccessView({ params }: RouteProps) {
  const db = useActiveDb();
  const pendingVersion = usePendingVersion();
  const groups = useLiveQuery(
    () => (db ? groupsWithSupervisors(db) : Promise.resolve([])),
    [db, pendingVersion],
  );
  const features = useLiveQuery(
    () => (db ? featuresWithHolders(db) : Promise.resolve([])),
    [db, pendingVersion],
  );
  const opened =
    params[0] === 'group' ? groups?.find((g) => g.group.groupid === Number(params[1])) : undefined;
  return (
    <section className="view" aria-labelledby="access-heading">
      <h1 id="access-heading">Access</h1>
      <section className="panel" aria-labelledby="access-groups-heading">
        <h2 id="access-groups-heading">Groups</h2>
        <div className="toolbar">
          <ExportButtons
            what="group access"
            load={async () => tableOf(groupExportColumns, groups ?? [])}
            disabled={!groups?.length}
          />
        </div>
        <VirtualGrid
          label="Groups and their supervisors"
          rows={groups ?? []}
          rowKey={(g) => g.group.groupid}
          columns={groupColumns}
          size="short"
          rowHeight={44}
          loading={groups === undefined}
          onActivate={(g) => navigate('access', 'group', g.group.groupid)}
          emptyText="No group in the cache."
        />
      </section>
      {/* `#/access/group/42`: that group's members and supervisors, to select and act on */}
      {db && opened && <GroupPeople key={opened.group.groupid} db={db} group={opened} />}
      <section className="panel" aria-labelledby="access-features-heading">
        <h2 id="access-features-heading">Features</h2>
        <div className="toolbar">
          <ExportButtons
            what="feature access"
            load={async () => tableOf(featureExportColumns, features ?? [])}
            disabled={!features?.length}
          />
        </div>
        <VirtualGrid
          label="Features and their supervisors"
          rows={features ?? []}
          rowKey={(f) => f.feature.id}
          columns={featureColumns}
          size="short"
          rowHeight={44}
          loading={features === undefined}
          emptyText="No feature in the cache."
        />
      </section>
    </section>
  );
}
