/** A person's e-mail address, on main's side: added by POST, removed by DELETE, read in the person's e-mails. */
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import { ABSENT, list, presentState, type ReplayClient } from '../read.ts';
import { NO_PERSON, NOT_LISTED, type ReplayKind } from './definition.ts';

type Email = { emailid: number; email: string };

async function emailsOf(client: ReplayClient, userid: number, signal?: AbortSignal) {
  return list(client, `/users/${userid}/emails`, ['emails'], 'email', signal);
}

const stateOf = (email: Email | undefined) => (email ? presentState({ ...email }, email.emailid) : ABSENT);

export const emailAdd: ReplayKind<'email.add'> = {
  writeRequest: (spec) => ({
    method: 'POST',
    path: `/users/${spec.userid}/emails`,
    body: { email: spec.email },
  }),
  // found again by its address (a create whose answer was lost)
  readState: async (client, spec: OpSpecOf<'email.add'>, signal) => {
    const wanted = spec.email.trim().toLowerCase();
    const emails = await emailsOf(client, spec.userid, signal);
    return stateOf(emails.find((e) => e.email.trim().toLowerCase() === wanted));
  },
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};

export const emailRemove: ReplayKind<'email.remove'> = {
  writeRequest: (spec) => ({ method: 'DELETE', path: `/users/${spec.userid}/emails/${spec.emailid}` }),
  readState: async (client, spec, signal) =>
    stateOf((await emailsOf(client, spec.userid, signal)).find((e) => e.emailid === spec.emailid)),
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: NO_PERSON,
};
