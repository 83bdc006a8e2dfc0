/**
 * A fake `window.fieldbook` for renderer tests: records requests, answers them
 * from scripted results, and lets the test emit main's events.
 */
import type { EventName, EventPayloads, FieldbookApi, RequestResults, Result } from '../../shared/ipc.ts';

type Listener<E extends EventName> = (payload: EventPayloads[E]) => void;

export interface FakeApi {
  api: FieldbookApi;
  calls: { channel: string; arg: unknown }[];
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void;
  respond<C extends keyof RequestResults>(
    channel: C,
    answer: (arg: unknown) => Result<RequestResults[C]>,
  ): void;
}

export function fakeApi(): FakeApi {
  const listeners = new Map<EventName, Set<Listener<EventName>>>();
  const answers = new Map<string, (arg: unknown) => Result<unknown>>();
  const calls: { channel: string; arg: unknown }[] = [];
  const request = (channel: string) => async (arg?: unknown) => {
    calls.push({ channel, arg });
    const answer = answers.get(channel);
    if (answer) return answer(arg);
    return { ok: false, error: { code: 'internal', message: `no answer scripted for ${channel}` } };
  };
  const on = (event: EventName) => (listener: Listener<EventName>) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  };
  const api = {
    'profiles:list': request('profiles:list'),
    'profiles:save': request('profiles:save'),
    'profiles:delete': request('profiles:delete'),
    'profiles:activate': request('profiles:activate'),
    'profiles:sites': request('profiles:sites'),
    'profiles:setKeptSites': request('profiles:setKeptSites'),
    'demo:start': request('demo:start'),
    'profiles:setWorkOffline': request('profiles:setWorkOffline'),
    'demo:serverChange': request('demo:serverChange'),
    'connection:probe': request('connection:probe'),
    'sync:start': request('sync:start'),
    'sync:cancel': request('sync:cancel'),
    'sync:ack': request('sync:ack'),
    'sync:fingerprints': request('sync:fingerprints'),
    'users:detail': request('users:detail'),
    'replay:execute': request('replay:execute'),
    'replay:executeBatch': request('replay:executeBatch'),
    'replay:read': request('replay:read'),
    'report:savePdf': request('report:savePdf'),
    'identities:check': request('identities:check'),
    on: {
      'sync:page': on('sync:page'),
      'sync:progress': on('sync:progress'),
      'sync:finished': on('sync:finished'),
      'connection:changed': on('connection:changed'),
      'profiles:changed': on('profiles:changed'),
      'replay:outcomes': on('replay:outcomes'),
    },
  } as unknown as FieldbookApi;
  return {
    api,
    calls,
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) (l as Listener<typeof event>)(payload);
    },
    respond(channel, answer) {
      answers.set(channel, answer as (arg: unknown) => Result<unknown>);
    },
  };
}
