/**
 * What the shell does when the window's renderer crashes or freezes. Pure: the
 * shell feeds it Electron's events and acts on the answer (a dialog, a reload).
 *
 * A reload loses nothing: the offline cache and the outbox live in IndexedDB,
 * on disk, and a sync the old page was running gives way to the next one.
 * A renderer that keeps crashing is not reloaded in a loop: after
 * `MAX_CRASHES` within `CRASH_WINDOW_MS` the user is told to quit and restart.
 */
export type RendererTrouble =
  { kind: 'gone'; reason: string; exitCode?: number } | { kind: 'unresponsive' } | { kind: 'responsive' };

export type Recovery =
  | { action: 'none' }
  /** the page came back by itself: close any "not responding" question still open */
  | { action: 'dismiss' }
  /** ask: `buttons[reloadButton]` reloads; the other button waits (frozen) or quits (crashed) */
  | {
      action: 'ask';
      title: string;
      message: string;
      detail: string;
      buttons: string[];
      reloadButton: number;
      quitButton: number | null;
    }
  /** crashing again and again: only quitting is offered */
  | { action: 'give-up'; title: string; message: string; detail: string };

export const MAX_CRASHES = 3;
export const CRASH_WINDOW_MS = 60_000;

/**
 * How long after killing a frozen renderer its 'render-process-gone' is taken
 * as that kill. Electron reports it at once; the bound keeps a kill that never
 * got reported from hiding a real crash much later.
 */
const EXPECTED_KILL_MS = 10_000;

const KEPT =
  'Your offline copy and the queued changes in the Outbox are kept: they are stored on disk, not in the window.';

const REASONS: Record<string, string> = {
  crashed: 'The Fieldbook window crashed.',
  oom: 'The Fieldbook window ran out of memory.',
  killed: 'The Fieldbook window was stopped by the system.',
  'abnormal-exit': 'The Fieldbook window stopped unexpectedly.',
  'launch-failed': 'The Fieldbook window could not start.',
  'integrity-failure': 'The Fieldbook window failed a code integrity check.',
};

/**
 * The decision for one event. `recentCrashes` holds the times (ms) of earlier
 * crashes; the caller appends `now` for a crash, whatever the answer.
 */
export function decideRecovery(
  trouble: RendererTrouble,
  recentCrashes: readonly number[],
  now: number,
): Recovery {
  if (trouble.kind === 'responsive') return { action: 'dismiss' };
  if (trouble.kind === 'unresponsive') {
    return {
      action: 'ask',
      title: 'Fieldbook is not responding',
      message: 'The Fieldbook window is not responding.',
      detail: `You can wait for it, or reload the window. ${KEPT}`,
      buttons: ['Wait', 'Reload'],
      reloadButton: 1,
      quitButton: null,
    };
  }
  // a window closed on purpose ends cleanly: nothing to recover
  if (trouble.reason === 'clean-exit') return { action: 'none' };
  const message = REASONS[trouble.reason] ?? 'The Fieldbook window stopped unexpectedly.';
  const crashes = recentCrashes.filter((t) => now - t < CRASH_WINDOW_MS).length + 1;
  if (crashes >= MAX_CRASHES) {
    return {
      action: 'give-up',
      title: 'Fieldbook keeps stopping',
      message: `${message} It has stopped ${crashes} times in the last minute, so it is not reloaded again.`,
      detail: `Quit Fieldbook and start it again. ${KEPT}`,
    };
  }
  return {
    action: 'ask',
    title: 'Fieldbook stopped',
    message,
    detail: `Reload the window to carry on. ${KEPT}`,
    buttons: ['Reload', 'Quit'],
    reloadButton: 0,
    quitButton: 1,
  };
}

/** The slice of BrowserWindow the recovery uses (tested without Electron). */
export interface RecoverableWindow {
  on(event: 'unresponsive' | 'responsive', listener: () => void): unknown;
  isDestroyed(): boolean;
  webContents: {
    on(
      event: 'render-process-gone',
      listener: (event: unknown, details: { reason: string; exitCode?: number }) => void,
    ): unknown;
    reload(): void;
    /** ends the renderer's process; a reload right after runs in a new one */
    forcefullyCrashRenderer(): void;
  };
}

export interface MessageBox {
  type: 'warning' | 'error';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: true;
  signal: AbortSignal;
}

export interface RecoveryDeps {
  /** dialog.showMessageBox(window, options) */
  ask(options: MessageBox): Promise<{ response: number }>;
  quit(): void;
  now?: () => number;
}

/** Watches one window: a crash or a freeze asks the user (reload / wait / quit) as `decideRecovery` says. */
export function attachRecovery(window: RecoverableWindow, deps: RecoveryDeps): void {
  const now = deps.now ?? Date.now;
  const crashes: number[] = [];
  let asking: AbortController | null = null;
  /** when the shell killed a frozen renderer itself: the 'render-process-gone' that follows is no crash */
  let killedAt: number | null = null;

  const reload = (frozen: boolean) => {
    if (window.isDestroyed()) return;
    if (frozen) {
      // Electron's advice for a hung renderer: a plain reload may be given to the same, still hung, process
      killedAt = now();
      window.webContents.forcefullyCrashRenderer();
    }
    window.webContents.reload();
  };

  /** True for the one 'killed' (or 'crashed': Electron reports either) that our own kill causes. */
  const expectedKill = (trouble: RendererTrouble, at: number): boolean => {
    if (trouble.kind !== 'gone' || killedAt === null) return false;
    const ours =
      (trouble.reason === 'killed' || trouble.reason === 'crashed') && at - killedAt <= EXPECTED_KILL_MS;
    killedAt = null;
    return ours;
  };

  const handle = (trouble: RendererTrouble) => {
    const at = now();
    if (expectedKill(trouble, at)) return;
    const answer = decideRecovery(trouble, crashes, at);
    if (trouble.kind === 'gone' && answer.action !== 'none') crashes.push(at);
    if (answer.action === 'none') return;
    asking?.abort();
    asking = null;
    if (answer.action === 'dismiss') return;
    const controller = new AbortController();
    asking = controller;
    const giveUp = answer.action === 'give-up';
    const buttons = giveUp ? ['Quit'] : answer.buttons;
    const reloadButton = giveUp ? -1 : answer.reloadButton;
    const quitButton = giveUp ? 0 : answer.quitButton;
    const waitButton = buttons.findIndex((_, i) => i !== reloadButton && i !== quitButton);
    void deps
      .ask({
        type: giveUp ? 'error' : 'warning',
        title: answer.title,
        message: answer.message,
        detail: answer.detail,
        buttons,
        defaultId: giveUp ? 0 : reloadButton,
        cancelId: quitButton ?? waitButton,
        noLink: true,
        signal: controller.signal,
      })
      .then(({ response }) => {
        if (controller.signal.aborted) return;
        asking = null;
        if (response === quitButton) deps.quit();
        else if (response === reloadButton) reload(trouble.kind === 'unresponsive');
      });
  };

  window.webContents.on('render-process-gone', (_event, details) =>
    handle({
      kind: 'gone',
      reason: details.reason,
      ...(details.exitCode === undefined ? {} : { exitCode: details.exitCode }),
    }),
  );
  window.on('unresponsive', () => handle({ kind: 'unresponsive' }));
  window.on('responsive', () => handle({ kind: 'responsive' }));
}
