/**
 * The rules the Electron shell installs on every web contents, as plain functions
 * so they are unit-tested without Electron (src/main/index.ts only wires them).
 */
import { isSafeExternalUrl } from './external-links.ts';
import { isOwnUrl } from './origin.ts';

/**
 * What the window's webPreferences must say out loud (Electron's secure defaults,
 * plus no webviews and no navigation by dropped links). The shell writes them
 * literally inside `new BrowserWindow({...})`, where reviewers and Electronegativity
 * read them; window-rules.test.ts checks the shell's source against this list.
 */
export const REQUIRED_WEB_PREFERENCES = {
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  contextIsolation: true,
  sandbox: true,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
  navigateOnDragDrop: false,
  disableBlinkFeatures: 'Auxclick',
} as const;

export interface PreventableEvent {
  preventDefault(): void;
}

/** `will-navigate` / `will-redirect` / `will-frame-navigate`: stay inside the app. Returns whether it was allowed. */
export function guardNavigation(event: PreventableEvent, url: string, devOrigin?: string | null): boolean {
  if (isOwnUrl(url, devOrigin)) return true;
  event.preventDefault();
  return false;
}

/**
 * `setWindowOpenHandler`: the app never opens windows (window.open, target=_blank,
 * middle-click). An http(s) link that passes the external-link check opens in the
 * system browser instead; anything else is dropped.
 */
export function createWindowOpenHandler(openExternal: (url: string) => void) {
  return (details: { url: string }): { action: 'deny' } => {
    if (isSafeExternalUrl(details.url)) openExternal(details.url);
    return { action: 'deny' };
  };
}

/** `will-attach-webview`: the app has no <webview>. */
export function refuseWebview(event: PreventableEvent): void {
  event.preventDefault();
}

/** Permission requests (camera, notifications, geolocation, ...): the app needs none. */
export function denyPermissionRequest(
  _webContents: unknown,
  _permission: string,
  callback: (granted: boolean) => void,
): void {
  callback(false);
}

/** Permission checks: nothing is granted. */
export function denyPermissionCheck(): boolean {
  return false;
}
