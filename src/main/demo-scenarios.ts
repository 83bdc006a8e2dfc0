/**
 * "Make changes on the server as another admin would": named scenarios applied
 * to the demo's in-process server through its admin mutate facility, so that
 * "Since last sync" and conflicts can be tried with the demo alone. Each picks
 * its records from the server's own data (the first that fit, by id: the same
 * on every run of one dataset) and says what it did in the coordinator's words.
 */
import type { DemoServerChange, DemoServerScenario, ParsedArg } from '../shared/ipc.ts';
import { addDaysIso } from '../shared/dates.ts';
import { OUR_CUSTOMER } from '../server/datasets.ts';
import type { RunningServer } from '../server/index.ts';
import { FieldbookError } from './ipc/errors.ts';
import { credentialAssignmentKey } from '../shared/keys.ts';

/** The slice of the running demo server a scenario uses. */
export type DemoServerHandle = Pick<RunningServer, 'query' | 'mutate' | 'today'>;

interface Person {
  userid: number;
  firstname: string;
  lastname: string;
  status: string;
}

interface Assignment {
  credentialid: number;
  userid: number;
  credentialname: string;
  expirationdate: string;
  firstname: string;
  lastname: string;
}

/** Surnames another admin gives people (a marriage, a typo fixed). */
const NEW_LASTNAMES = ['Marsh', 'Okafor', 'Lindqvist'];

const PEOPLE_SQL = `SELECT u.userid, u.firstname, u.lastname, u.status FROM users u JOIN sites s ON s.siteid = u.siteid
  WHERE s.customerid = ${OUR_CUSTOMER}`;
const ASSIGNMENTS_SQL = `SELECT a.credentialid, a.userid, c.credentialname, a.expirationdate, u.firstname, u.lastname
  FROM credential_assignments a JOIN credentials c ON c.credentialid = a.credentialid
  JOIN users u ON u.userid = a.userid
  JOIN sites s ON s.siteid = u.siteid WHERE s.customerid = ${OUR_CUSTOMER}`;

/** A calendar day as people write it ("Nov 27, 2027"), in UTC so no time zone shifts it. */
const longDate = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );

const nameOf = (p: { firstname: string; lastname: string }) => `${p.firstname} ${p.lastname}`.trim();

/** People of the demo site, in id order, leaving out `skip` (people the coordinator has pending edits on). */
function people(
  server: DemoServerHandle,
  where: string,
  limit: number,
  skip: readonly number[] = [],
): Person[] {
  const rows = server.query<Person>(
    `${PEOPLE_SQL} AND ${where} ORDER BY u.userid LIMIT ?`,
    limit + skip.length,
  );
  return rows.filter((p) => !skip.includes(p.userid)).slice(0, limit);
}

function nothingToChange(what: string): never {
  throw new FieldbookError('not-found', `The demo site has ${what}, so nothing was changed.`);
}

function renamePeople(server: DemoServerHandle, skip: readonly number[]): string[] {
  const chosen = people(server, `u.status = 'Active'`, 2, skip);
  if (chosen.length === 0) nothingToChange('no active person left to rename');
  return chosen.map((person, i) => {
    const lastname = NEW_LASTNAMES[i % NEW_LASTNAMES.length]!;
    server.mutate({ resource: 'user', id: person.userid, changes: { lastname } });
    return `Renamed ${nameOf(person)} to ${nameOf({ ...person, lastname })}.`;
  });
}

/** The platform's user statuses, in the order another admin would reach for them. */
const STATUSES = ['Inactive', 'Active', 'Offline'];

/** A status the person does not have, nor will have by the coordinator's queued change (so the two edits meet). */
function otherStatus(current: string, queued?: string): string {
  return STATUSES.find((s) => s !== current && s !== queued) ?? 'Inactive';
}

function changeStatus(server: DemoServerHandle, chosen: Person[], queued?: string): string[] {
  return chosen.map((person) => {
    const status = otherStatus(person.status, queued);
    server.mutate({ resource: 'user', id: person.userid, changes: { status } });
    return `Changed the status of ${nameOf(person)} from ${person.status} to ${status}.`;
  });
}

/** The people each demo server's "another admin" already changed for 'change-pending' (each click takes the next). */
const changedForPending = new WeakMap<DemoServerHandle, Set<number>>();

/**
 * Another admin changes the status of someone the coordinator queued a status change
 * for, so the two edits meet on the same field (a conflict to settle); each click takes
 * the next such person, never the same one twice.
 */
function changePending(server: DemoServerHandle, pending: readonly PendingPerson[]): string[] {
  if (pending.length === 0) {
    throw new FieldbookError(
      'invalid-argument',
      'You have no pending change on a person yet: queue one (while working offline), then try this again.',
    );
  }
  const withStatus = pending.filter((p) => p.status !== undefined);
  if (withStatus.length === 0) {
    throw new FieldbookError(
      'invalid-argument',
      'None of your pending changes is a change of status, so a change of status on the server would not meet yours. ' +
        'Queue one (Users: select people, then Bulk action: Change status), then try this again.',
    );
  }
  const done = changedForPending.get(server) ?? new Set<number>();
  changedForPending.set(server, done);
  const next = withStatus.find((p) => !done.has(p.userid));
  if (!next) nothingToChange('already changed everyone you have a pending status change for');
  done.add(next.userid);
  const chosen = server.query<Person>(`${PEOPLE_SQL} AND u.userid = ?`, next.userid);
  if (chosen.length === 0) nothingToChange('no longer the person of your pending change');
  return changeStatus(server, chosen, next.status);
}

function renewCredential(server: DemoServerHandle): string[] {
  const [expired] = server.query<Assignment>(
    `${ASSIGNMENTS_SQL} AND a.expirationdate < ? ORDER BY a.expirationdate, a.userid LIMIT 1`,
    server.today,
  );
  if (!expired) nothingToChange('no expired credential to renew');
  const expirationdate = addDaysIso(server.today, 365);
  server.mutate({
    resource: 'credentialAssignment',
    id: credentialAssignmentKey(expired.credentialid, expired.userid),
    changes: { startdate: server.today, expirationdate },
  });
  return [
    `Renewed ${expired.credentialname} for ${nameOf(expired)}: it now expires on ${longDate(expirationdate)}.`,
  ];
}

function removeCredential(server: DemoServerHandle, skip: readonly number[]): string[] {
  const rows = server.query<Assignment>(
    `${ASSIGNMENTS_SQL} ORDER BY a.userid, a.credentialid LIMIT ?`,
    1 + skip.length * 50,
  );
  const chosen = rows.find((a) => !skip.includes(a.userid));
  if (!chosen) nothingToChange('no credential to remove');
  server.mutate({
    resource: 'credentialAssignment',
    id: credentialAssignmentKey(chosen.credentialid, chosen.userid),
    delete: true,
  });
  return [`Removed ${chosen.credentialname} from ${nameOf(chosen)}.`];
}

function deletePerson(server: DemoServerHandle, skip: readonly number[]): string[] {
  const [person] = people(server, `u.status = 'Inactive'`, 1, skip).concat(people(server, '1 = 1', 1, skip));
  if (!person) nothingToChange('nobody left to delete');
  server.mutate({ resource: 'user', id: person.userid, delete: true });
  return [`Deleted ${nameOf(person)} (with their credentials and training).`];
}

type PendingPerson = NonNullable<ParsedArg<'demo:serverChange'>['pending']>[number];

/** Each scenario, given the people with pending changes (left alone by all but 'change-pending'). */
const SCENARIOS: Record<
  DemoServerScenario,
  (server: DemoServerHandle, pending: readonly PendingPerson[], skip: readonly number[]) => string[]
> = {
  'rename-people': (server, _pending, skip) => renamePeople(server, skip),
  'change-status': (server, _pending, skip) =>
    changeStatus(server, people(server, `u.status = 'Active'`, 2, skip)),
  'renew-credential': (server) => renewCredential(server),
  'remove-credential': (server, _pending, skip) => removeCredential(server, skip),
  'delete-person': (server, _pending, skip) => deletePerson(server, skip),
  'change-pending': (server, pending) => changePending(server, pending),
};

/** Applies one scenario to the demo server; says what changed, one line per record. */
export function applyDemoScenario(
  server: DemoServerHandle,
  arg: ParsedArg<'demo:serverChange'>,
): DemoServerChange {
  const pending = arg.pending ?? [];
  return {
    scenario: arg.scenario,
    changes: SCENARIOS[arg.scenario](
      server,
      pending,
      pending.map((p) => p.userid),
    ),
  };
}
