/**
 * The part of an operation kind bound to main's replay: the request that
 * carries it, how the platform's state of its record is read, and the list
 * route that holds that record when many ops share one. Each kind's part lives
 * in the module of its record here (user.ts, email.ts, group-access.ts,
 * module-access.ts, credential-assignment.ts, training-assignment.ts); the
 * registry (../kinds.ts) holds one per kind, as src/shared/op-kinds.ts holds
 * the pure part.
 */
import type { OpKind } from '../../../shared/ipc.ts';
import type { OpSpecOf } from '../../../shared/op-kinds/definition.ts';
import type { ReplayClient, ServerState } from '../read.ts';
import type { WriteRequest } from '../routes.ts';

/** A record of a list route, as the op's own read would give it, under the key its ops look it up by. */
export interface ListedRecord {
  key: string;
  state: ServerState;
}

/** A list route that returns the records of many ops at once (read in pages by ../list-reads.ts). */
export interface ListRoute {
  /** The route, which also names the list: ops of one path share one read. */
  path: string;
  /**
   * One page's records, validated (a page that fails throws); null for a record that is not one of this list's
   * (never trusted for one).
   */
  recordsOf(body: unknown, startrow: number): (ListedRecord | null)[];
}

/** Where an op's record may be read with others: the list route and the record's key in it. */
export interface ListedIn {
  route: ListRoute;
  key: string;
}

export interface ReplayKind<K extends OpKind> {
  /** The API request that carries the op. */
  writeRequest(spec: OpSpecOf<K>): WriteRequest;
  /**
   * The platform's state of the op's record, for the conflict check (updates) and the verification before a
   * resend (creates, grants, deletes).
   */
  readState(client: ReplayClient, spec: OpSpecOf<K>, signal?: AbortSignal): Promise<ServerState>;
  /** The list route that holds the op's record (issue 12), or null: the op reads it on its own. */
  listedIn(spec: OpSpecOf<K>): ListedIn | null;
  /** Its own record comes back from the server after the write (the platform fills in fields of its own). */
  readsBack: boolean;
  /**
   * Whose person record the op may change as a side effect (a grantee made a Supervisor, a person created
   * "Offline"), read back after it is done; null: none. `createdId`: the id the server gave a create.
   */
  personChanged(spec: OpSpecOf<K>, createdId: number | string | null | undefined): number | null;
}

/** One replay part per kind: a kind without one, or a part missing, is a type error. */
export type ReplayKindRegistry = { [K in OpKind]: ReplayKind<K> };

/** The part of a kind whose records no list route is read for. */
export const NOT_LISTED = (): null => null;

/** The part of a kind that changes no person's record as a side effect. */
export const NO_PERSON = (): null => null;

/** The part of a kind that may change its person's record (their user type, say) as a side effect. */
export const ITS_PERSON = (spec: { userid: number }): number => spec.userid;
