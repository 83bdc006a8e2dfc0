/**
 * `window.fieldbook`: exactly the contract of src/shared/ipc.ts, one function per
 * request channel and one subscription per event, written out by hand and checked
 * with `satisfies FieldbookApi` so preload and renderer cannot drift.
 *
 * Never exposes ipcRenderer or a generic invoke/on. Listeners receive the payload
 * only (the IPC event, which carries `sender`, is stripped). Only types are
 * imported from the contract, so the bundled preload stays free of zod.
 */
import type {
  Channel,
  EventName,
  EventPayloads,
  FieldbookApi,
  RequestArg,
  RequestResults,
  Result,
} from '../shared/ipc.ts';

/** The slice of Electron's ipcRenderer the preload uses. */
export interface IpcRendererLike {
  invoke(channel: string, arg?: unknown): Promise<unknown>;
  on(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, payload: unknown) => void): unknown;
}

export function createFieldbookApi(ipc: IpcRendererLike) {
  const invoke = <C extends Channel>(channel: C, arg?: RequestArg<C>) =>
    ipc.invoke(channel, arg) as Promise<Result<RequestResults[C]>>;

  const subscribe = <E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void) => {
    const relay = (_event: unknown, payload: unknown) => listener(payload as EventPayloads[E]);
    ipc.on(event, relay);
    return () => {
      ipc.removeListener(event, relay);
    };
  };

  return {
    'profiles:list': () => invoke('profiles:list'),
    'profiles:save': (arg) => invoke('profiles:save', arg),
    'profiles:delete': (arg) => invoke('profiles:delete', arg),
    'profiles:activate': (arg) => invoke('profiles:activate', arg),
    'profiles:sites': (arg) => invoke('profiles:sites', arg),
    'profiles:setKeptSites': (arg) => invoke('profiles:setKeptSites', arg),
    'demo:start': () => invoke('demo:start'),
    'profiles:setWorkOffline': (arg) => invoke('profiles:setWorkOffline', arg),
    'demo:serverChange': (arg) => invoke('demo:serverChange', arg),
    'connection:probe': () => invoke('connection:probe'),
    'sync:start': (arg) => invoke('sync:start', arg),
    'sync:fingerprints': (arg) => invoke('sync:fingerprints', arg),
    'sync:cancel': (arg) => invoke('sync:cancel', arg),
    'sync:ack': (arg) => invoke('sync:ack', arg),
    'users:detail': (arg) => invoke('users:detail', arg),
    'replay:execute': (arg) => invoke('replay:execute', arg),
    'replay:executeBatch': (arg) => invoke('replay:executeBatch', arg),
    'replay:read': (arg) => invoke('replay:read', arg),
    'report:savePdf': (arg) => invoke('report:savePdf', arg),
    'identities:check': (arg) => invoke('identities:check', arg),
    on: {
      'sync:page': (listener) => subscribe('sync:page', listener),
      'sync:progress': (listener) => subscribe('sync:progress', listener),
      'sync:finished': (listener) => subscribe('sync:finished', listener),
      'connection:changed': (listener) => subscribe('connection:changed', listener),
      'profiles:changed': (listener) => subscribe('profiles:changed', listener),
      'replay:outcomes': (listener) => subscribe('replay:outcomes', listener),
    },
  } satisfies FieldbookApi;
}
