/** A person, on main's side: updated by PUT, created on a site by POST; the users a token sees are one list. */
import { WrapperKey } from '../../../shared/api/index.ts';
import { userTargetKey } from '../../../shared/keys.ts';
import { ABSENT, itemsOf, list, one, presentState } from '../read.ts';
import { NO_PERSON, NOT_LISTED, type ListRoute, type ReplayKind } from './definition.ts';

/** Every user the token sees: the record of each queued update among them. */
const USERS_LIST: ListRoute = {
  path: '/users',
  recordsOf: (body, startrow) =>
    itemsOf(body, [WrapperKey.users], 'user', startrow).map((user) => ({
      key: userTargetKey(user.userid),
      state: presentState({ ...user }, user.userid),
    })),
};

export const userUpdate: ReplayKind<'user.update'> = {
  writeRequest: (spec) => ({ method: 'PUT', path: `/users/${spec.userid}`, body: { ...spec.changes } }),
  readState: async (client, spec, signal) => {
    const users = await one(client, `/users/${spec.userid}`, ['users'], 'user', signal);
    const user = users.find((u) => u.userid === spec.userid);
    return user ? presentState({ ...user }, user.userid) : ABSENT;
  },
  listedIn: (spec) => ({ route: USERS_LIST, key: userTargetKey(spec.userid) }),
  readsBack: false,
  personChanged: NO_PERSON,
};

export const userCreate: ReplayKind<'user.create'> = {
  writeRequest: (spec) => ({ method: 'POST', path: `/sites/${spec.siteid}/users`, body: { ...spec.fields } }),
  // found again by username on its site (a create whose answer was lost)
  readState: async (client, spec, signal) => {
    const query = { username: spec.fields.username };
    const users = await list(client, '/users', ['users'], 'user', signal, query);
    const wanted = spec.fields.username.trim().toLowerCase();
    const user = users.find((u) => u.username.trim().toLowerCase() === wanted && u.siteid === spec.siteid);
    return user ? presentState({ ...user }, user.userid) : ABSENT;
  },
  listedIn: NOT_LISTED,
  readsBack: false,
  personChanged: (_spec, createdId) => (typeof createdId === 'number' ? createdId : null),
};
