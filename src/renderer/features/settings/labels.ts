/** Collections in the user's words, and what a token's access level means for them. */
import type { CollectionState, TokenAccess } from '../../../shared/ipc.ts';
import type { CollectionName } from '../../../shared/records.ts';

export const COLLECTION_LABEL: Record<CollectionName, string> = {
  sites: 'Sites',
  users: 'Users',
  emails: 'E-mail addresses',
  profileCategories: 'Profile categories',
  groups: 'Profile groups',
  groupMembers: 'Group members',
  groupAccess: 'Group access',
  modules: 'Features',
  moduleAccess: 'Feature access',
  credentialCategories: 'Credential categories',
  credentials: 'Credentials',
  credentialAssignments: 'Credential assignments',
  courses: 'Courses',
  trainingAssignments: 'Training assignments',
};

/** A collection's state in the sync panel (never the engine's own word). */
export const COLLECTION_STATE_LABEL: Record<CollectionState, string> = {
  pending: 'Waiting',
  running: 'Syncing…',
  complete: 'Up to date',
  failed: 'Failed',
  cancelled: 'Paused',
};

/** What the app cannot do with this token, or null when it can do everything. */
export function accessLimitation(access: TokenAccess): string | null {
  switch (access) {
    case 'readonly':
      return 'This token is read-only: you can sync and browse everything it can read, but changes cannot be sent to the site. Edits are refused before they are queued.';
    case 'feature':
      return 'This token is limited to one feature: collections outside it cannot be synced, and changes outside it will be refused.';
    default:
      return null;
  }
}
