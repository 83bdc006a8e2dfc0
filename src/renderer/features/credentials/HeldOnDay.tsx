/**
 * "Who held it on a past day", under a credential's holders: the auditor's question,
 * answered from this laptop's compliance history (held-on.ts), with the same words
 * as the report "as of" on how the day was rebuilt and where the history does not
 * reach, and an export to hand over.
 */
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import type { CredentialRecord } from '../../../shared/records.ts';
import { todayIso } from '../../../shared/dates.ts';
import type { FieldbookDb } from '../../db/index.ts';
import { formatDate } from '../../app/format.ts';
import { navigate } from '../../app/router.ts';
import { tableOf, type ExportColumn } from '../../app/export-list.ts';
import { ExportButtons } from '../../components/ExportButtons.tsx';
import { VirtualGrid, type Column } from '../../components/VirtualGrid.tsx';
import { loadDay } from '../../history/rebuild.ts';
import { historyNote } from '../report/as-of.ts';
import { heldOn, heldOnLine, type HeldOnRow } from './held-on.ts';

const dateOrNone = (iso: string, none: string) => (iso ? formatDate(iso) : none);

const COLUMNS: readonly Column<HeldOnRow>[] = [
  {
    id: 'name',
    header: 'Name',
    width: 'minmax(10rem, 2fr)',
    render: (r) => `${r.lastname}, ${r.firstname}`,
    fitText: (r) => `${r.lastname}, ${r.firstname}`,
  },
  { id: 'employeeid', header: 'Employee ID', width: '8rem', render: (r) => r.employeeid },
  { id: 'site', header: 'Site', width: 'minmax(8rem, 1fr)', render: (r) => r.sitename },
  { id: 'status', header: 'Status then', width: '7rem', render: (r) => r.status },
  { id: 'start', header: 'Valid from', width: '8rem', render: (r) => dateOrNone(r.start, '—') },
  { id: 'expires', header: 'Expires', width: '8rem', render: (r) => dateOrNone(r.expiration, 'Never') },
];

const EXPORT_COLUMNS: readonly ExportColumn<HeldOnRow>[] = [
  { header: 'Last name', cell: (r) => r.lastname },
  { header: 'First name', cell: (r) => r.firstname },
  { header: 'Username', cell: (r) => r.username },
  { header: 'Employee ID', cell: (r) => r.employeeid },
  { header: 'Site', cell: (r) => r.sitename },
  { header: 'Status then', cell: (r) => r.status },
  { header: 'Valid from', cell: (r) => r.start },
  { header: 'Expires', cell: (r) => r.expiration },
];

/** The day rebuilt and its holders; undefined while read or before a day is chosen. */
function useHeldOn(db: FieldbookDb, credentialid: number, day: string) {
  return useLiveQuery(async () => {
    if (!day) return undefined;
    const rebuilt = await loadDay(db, day);
    return {
      rows: heldOn(rebuilt, credentialid),
      note: historyNote(rebuilt),
      reached: rebuilt.before !== null,
    };
  }, [db, credentialid, day]);
}

export function HeldOnDay({ db, credential }: { db: FieldbookDb; credential: CredentialRecord }) {
  const [day, setDay] = useState('');
  const today = todayIso();
  const held = useHeldOn(db, credential.credentialid, day);
  const name = credential.credentialname;
  const count = held && day ? heldOnLine(held.rows.length, name, formatDate(day), held.reached) : '';
  return (
    <section className="panel" aria-labelledby="held-on-heading">
      <h2 id="held-on-heading">Who held {name} on a past day</h2>
      <div className="toolbar">
        <label>
          Day <input type="date" value={day} max={today} onChange={(e) => setDay(e.target.value)} />
        </label>
        <ExportButtons
          what={`holders of ${name} on ${day}`}
          load={async () => tableOf(EXPORT_COLUMNS, held?.rows ?? [])}
          disabled={!held?.reached || held.rows.length === 0}
        />
        <p role="status" className="count">
          {day ? (held ? count : 'Loading…') : 'Choose a day: the answer comes from this laptop’s syncs.'}
        </p>
      </div>
      {held?.note.map((line) => (
        <p key={line} className="muted">
          {line}
        </p>
      ))}
      {held?.reached && (
        <VirtualGrid
          label={`Holders of ${name} on ${formatDate(day)}`}
          rows={held.rows}
          rowKey={(r) => r.userid}
          columns={COLUMNS}
          size="short"
          onActivate={(r) => navigate('users', r.userid)}
          emptyText={`Nobody held a valid ${name} on ${formatDate(day)}.`}
        />
      )}
    </section>
  );
}
