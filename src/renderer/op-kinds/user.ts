/** A person, in the renderer: their create and update in words, and their cached record. */
import { refreshedUser, updatedUserOf, createdNumberOf } from '../outbox/refreshed.ts';
import { ABSENT, presentState, type RendererKind } from './definition.ts';
import { changesInWords, fieldsInWords } from './words.ts';
import { personStatusChoice } from '../app/person-status.ts';

/**
 * A person's status "Offline" with its meaning ("Offline (never signed in)") wherever a value is shown beside others
 * (a conflict, an undo's before and after): alone, it reads as this laptop being offline. The other statuses read
 * right as they are.
 */
function statusInWords(field: string, value: unknown): string | undefined {
  const offline = field === 'status' && typeof value === 'string' && value.trim().toLowerCase() === 'offline';
  return offline ? personStatusChoice(value) : undefined;
}

export const userUpdate: RendererKind<'user.update'> = {
  describe: (spec, named) => `Change ${changesInWords(spec.changes)} of ${named.person(spec.userid)}`,
  action: (spec) => `Change ${changesInWords(spec.changes)} of`,
  broadAction: (spec) => `Change ${fieldsInWords(spec.changes)} of`,
  whose: (spec, named) => named.person(spec.userid),
  afterDone: async (db, spec, outcome, op) => {
    // the server's record with the change on it (a field changed there meanwhile comes with it): one write,
    // marked as refreshed from the site like any record read back after a change
    const updated = updatedUserOf(op, outcome);
    if (updated) return db.users.put(updated);
    const current = await db.users.get(spec.userid);
    if (current) await db.users.put(refreshedUser(current, spec.changes, current));
  },
  cachedState: async (db, spec) => {
    const user = await db.users.get(spec.userid);
    return user ? presentState(user, user.userid) : ABSENT;
  },
  valueInWords: statusInWords,
};

export const userCreate: RendererKind<'user.create'> = {
  describe: ({ fields }) => {
    const name = `${fields.firstname} ${fields.lastname}`.trim();
    return `Create ${name} (${fields.username})${fields.status ? `, ${fields.status}` : ''}`;
  },
  action: () => 'Create',
  afterDone: async (db, spec, outcome) => {
    const userid = createdNumberOf(outcome);
    if (Number.isInteger(userid))
      await db.users.put(
        refreshedUser(undefined, { ...spec.fields, userid }, { userid, siteid: spec.siteid }),
      );
  },
  // found by username on its site, as the replay finds a create whose answer was lost
  cachedState: async (db, spec) => {
    const wanted = spec.fields.username.trim().toLowerCase();
    const onSite = await db.users.where('siteid').equals(spec.siteid).toArray();
    const user = onSite.find((u) => u.username.trim().toLowerCase() === wanted);
    return user ? presentState(user, user.userid) : ABSENT;
  },
  valueInWords: statusInWords,
};
