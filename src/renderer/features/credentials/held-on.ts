/**
 * Who held a credential, valid, on a past day: the auditor's question ("who at
 * Riverside held a valid forklift card on 3 March?"), answered from the compliance
 * history (history/rebuild.ts): the people as the last sync on or before that day
 * left them. Valid on the day: started by then (or no start recorded) and not expired,
 * by the report's rule (a card that expires on the day is still valid on it). Pure.
 */
import type { RebuiltDay } from '../../history/rebuild.ts';
import type { PersonFact } from '../../history/rows.ts';
import { NOT_ON_THIS_LAPTOP as NOT_HERE, plural } from '../../app/words.ts';

export interface HeldOnRow {
  userid: number;
  lastname: string;
  firstname: string;
  username: string;
  employeeid: string;
  /** the person's status on the platform then */
  status: string;
  sitename: string;
  /** the valid assignment's start and expiry (ISO dates, '' when none); the latest expiry when several */
  start: string;
  expiration: string;
}

type Held = PersonFact['c'][number];

const validOn = (day: string, credentialid: number) => (held: Held) => {
  const [, id, start, expiration] = held;
  return id === credentialid && (!start || start <= day) && (!expiration || expiration >= day);
};

/** Of several valid assignments, the one that lasts longest ('' never expires). */
const longest = (a: Held, b: Held) => (a[3] === '' || (b[3] !== '' && a[3] >= b[3]) ? a : b);

const byName = (a: HeldOnRow, b: HeldOnRow) =>
  a.lastname.localeCompare(b.lastname) || a.firstname.localeCompare(b.firstname) || a.userid - b.userid;

/** The holders of a valid `credentialid` on the rebuilt day, by name (none where the history does not reach). */
export function heldOn(rebuilt: RebuiltDay, credentialid: number): HeldOnRow[] {
  const sites = new Map(rebuilt.catalog.s.map(([id, name]) => [id, name]));
  const rows: HeldOnRow[] = [];
  for (const [userid, fact] of rebuilt.facts) {
    const valid = fact.c.filter(validOn(rebuilt.day, credentialid));
    if (valid.length === 0) continue;
    const [, , start, expiration] = valid.reduce(longest);
    const [siteid, username, firstname, lastname, employeeid, status] = fact.u;
    const sitename = sites.get(siteid) ?? NOT_HERE.site;
    rows.push({ userid, lastname, firstname, username, employeeid, status, sitename, start, expiration });
  }
  return rows.sort(byName);
}

/**
 * The answer's line: "3 people held a valid Forklift on Nov 10, 2026."; a day the history does not reach has no
 * answer, never "0 people held" (the note under it says why). `day` is already in words.
 */
export function heldOnLine(people: number, credential: string, day: string, reached: boolean): string {
  if (!reached) return `Not known: this laptop's history does not reach ${day}.`;
  return `${plural(people, 'person', 'people')} held a valid ${credential} on ${day}.`;
}
