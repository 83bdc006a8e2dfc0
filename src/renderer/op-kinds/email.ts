/** A person's e-mail address, in the renderer: added or removed in words, and the cached address. */
import { createdNumberOf } from '../outbox/refreshed.ts';
import { ABSENT, presentState, type RendererKind } from './definition.ts';

export const emailAdd: RendererKind<'email.add'> = {
  describe: (spec, named) => `Add e-mail ${spec.email} to ${named.person(spec.userid)}`,
  action: () => 'Add an e-mail to',
  afterDone: async (db, spec, outcome) => {
    const emailid = createdNumberOf(outcome);
    if (Number.isInteger(emailid))
      await db.emails.put({
        emailid,
        userid: spec.userid,
        email: spec.email,
        status: 'Active',
        isprimary: null,
      });
  },
  cachedState: async (db, spec) => {
    const wanted = spec.email.trim().toLowerCase();
    const emails = await db.emails.where('userid').equals(spec.userid).toArray();
    const email = emails.find((e) => e.email.trim().toLowerCase() === wanted);
    return email ? presentState(email, email.emailid) : ABSENT;
  },
};

export const emailRemove: RendererKind<'email.remove'> = {
  describe: (spec, named) => `Remove ${named.email(spec.emailid)} from ${named.person(spec.userid)}`,
  action: () => 'Remove an e-mail from',
  afterDone: (db, spec) => db.emails.delete(spec.emailid),
  cachedState: async (db, spec) => {
    const email = await db.emails.get(spec.emailid);
    return email && email.userid === spec.userid ? presentState(email, email.emailid) : ABSENT;
  },
};
