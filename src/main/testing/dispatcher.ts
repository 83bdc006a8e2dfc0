/**
 * Calling main's handlers through dispatch as the renderer does, for tests:
 * `call` gives the Result, `value` the answer (or throws with its code and
 * message). Every event is recorded, and a sync's pages are acknowledged as
 * the renderer would, so a sync runs to its end.
 */
import type {
  Channel,
  EventName,
  EventPayloads,
  RequestArg,
  RequestResults,
  Result,
  SyncPageEvent,
} from '../../shared/ipc.ts';
import type { createHandlers } from '../handlers.ts';
import { dispatch } from '../ipc/dispatch.ts';

type Handlers = ReturnType<typeof createHandlers>;
type Args<C extends Channel> = RequestArg<C> extends undefined ? [] : [RequestArg<C>];

export interface TestDispatcher {
  call<C extends Channel>(channel: C, ...arg: Args<C>): Promise<Result<RequestResults[C]>>;
  value<C extends Channel>(channel: C, ...arg: Args<C>): Promise<RequestResults[C]>;
  /** what main emitted, in order (`events.length = 0` empties it) */
  events: { event: EventName; payload: unknown }[];
}

/** `handlers`: read at each call (tests make new handlers between cases). */
export function testDispatcher(handlers: () => Handlers): TestDispatcher {
  const events: TestDispatcher['events'] = [];
  const ctx = {
    emit<E extends EventName>(event: E, payload: EventPayloads[E]) {
      events.push({ event, payload });
      if (event === 'sync:page') {
        const page = payload as SyncPageEvent;
        setImmediate(() => void call('sync:ack', { syncId: page.syncId, pageIds: [page.pageId] }));
      }
    },
  };
  function call<C extends Channel>(channel: C, ...arg: Args<C>): Promise<Result<RequestResults[C]>> {
    return dispatch(handlers(), channel, arg[0], ctx, () => undefined) as Promise<Result<RequestResults[C]>>;
  }
  async function value<C extends Channel>(channel: C, ...arg: Args<C>): Promise<RequestResults[C]> {
    const res = await call(channel, ...arg);
    if (!res.ok) throw new Error(`${channel}: ${res.error.code} ${res.error.message}`);
    return res.value;
  }
  return { call, value, events };
}
