/**
 * Online/offline as the API sees it: main's probe reaches the site (navigator.onLine
 * only says a network interface is up). Probed on start, every 15 s, when the
 * window's online/offline events fire, and whenever main reports a change;
 * not every 15 s while "Work offline" is on.
 */
import type { ConnectionStatus, FieldbookApi } from '../../shared/ipc.ts';

export const PROBE_INTERVAL_MS = 15_000;

export interface ConnectionMonitor {
  probe(): Promise<void>;
  stop(): void;
}

export function startConnectionMonitor(
  api: Pick<FieldbookApi, 'connection:probe' | 'on'>,
  onStatus: (status: ConnectionStatus) => void,
  options: {
    intervalMs?: number;
    target?: Pick<Window, 'addEventListener' | 'removeEventListener'> | null;
    /**
     * "Work offline" is on: the periodic and network-event probes stop (main would answer "offline on purpose" anyway)
     */
    held?: () => boolean;
  } = {},
): ConnectionMonitor {
  let stopped = false;
  let inFlight: Promise<void> | null = null;
  const probe = () => {
    // one probe at a time: a slow network must not pile requests up
    inFlight ??= (async () => {
      const result = await api['connection:probe']();
      if (!stopped) {
        onStatus(
          result.ok
            ? result.value
            : { online: false, checkedAt: new Date().toISOString(), profileId: null, error: result.error },
        );
      }
    })().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const held = options.held ?? (() => false);
  const timer = setInterval(() => {
    if (!held()) void probe();
  }, options.intervalMs ?? PROBE_INTERVAL_MS);
  const target =
    options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target;
  const onNetworkEvent = () => {
    if (!held()) void probe();
  };
  target?.addEventListener('online', onNetworkEvent);
  target?.addEventListener('offline', onNetworkEvent);
  const off = api.on['connection:changed']((status) => {
    if (!stopped) onStatus(status);
  });
  void probe();
  return {
    probe,
    stop() {
      stopped = true;
      clearInterval(timer);
      target?.removeEventListener('online', onNetworkEvent);
      target?.removeEventListener('offline', onNetworkEvent);
      off();
    },
  };
}
