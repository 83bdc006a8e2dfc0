/**
 * The cached collections whose effective state (cache + pending ops) the views
 * read, the record each holds and the key it is held by. Each operation kind
 * `shows` in one of them (definition.ts). Pure.
 */
import type {
  CredentialAssignmentRecord,
  EmailRecord,
  GroupAccessRecord,
  ModuleAccessRecord,
  TrainingAssignmentRecord,
  UserRecord,
} from '../records.ts';

/** The record of each collection: a collection added to EffectiveCollection without its record is a type error. */
export interface CollectionRecord {
  users: UserRecord;
  emails: EmailRecord;
  groupAccess: GroupAccessRecord;
  moduleAccess: ModuleAccessRecord;
  credentialAssignments: CredentialAssignmentRecord;
  trainingAssignments: TrainingAssignmentRecord;
}

export type EffectiveCollection = keyof CollectionRecord;

/** Each collection's key of its records (the key an op's `recordKey` gives). */
export const COLLECTION_KEY: { [C in EffectiveCollection]: (r: CollectionRecord[C]) => string | number } = {
  users: (r) => r.userid,
  emails: (r) => r.emailid,
  groupAccess: (r) => r.id,
  moduleAccess: (r) => r.id,
  credentialAssignments: (r) => r.id,
  trainingAssignments: (r) => r.transcriptid,
};
