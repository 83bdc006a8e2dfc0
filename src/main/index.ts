/**
 * The Electron shell, kept thin: lifecycle, the one window, its hardening and the
 * IPC transport. Every rule it applies is a pure function in ./security, tested
 * without Electron (whose binary this repository's CI cannot download).
 */
import { lookup } from 'node:dns/promises';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, Menu, net, protocol, session, shell } from 'electron';
import { CHANNELS } from '../shared/ipc.ts';
import { aboutPanel, appMenuTemplate } from './app-menu.ts';
import { createDemo } from './demo.ts';
import { createHandlers } from './handlers.ts';
import { createPdfSaver } from './report/pdf.ts';
import { dispatch } from './ipc/dispatch.ts';
import { KeytarKeychain } from './secrets/keytar-keychain.ts';
import { createAppRequestHandler } from './security/app-protocol.ts';
import { isPublicDestination } from './security/external-links.ts';
import { registerIpcTransport } from './security/ipc-transport.ts';
import { APP_ENTRY_URL, APP_SCHEME, parseUrl } from './security/origin.ts';
import { attachRecovery } from './security/recovery.ts';
import {
  createWindowOpenHandler,
  denyPermissionCheck,
  denyPermissionRequest,
  guardNavigation,
  refuseWebview,
} from './security/window-rules.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const rendererRoot = path.join(here, '../renderer');
const preloadPath = path.join(here, '../preload/index.cjs');

/** Development only: electron-vite's dev server (loopback). A packaged app always loads app://fieldbook/. */
const devServerUrl = !app.isPackaged ? parseUrl(process.env['ELECTRON_RENDERER_URL'] ?? '') : null;
const devOrigin =
  devServerUrl && ['127.0.0.1', 'localhost'].includes(devServerUrl.hostname) ? devServerUrl.origin : null;

// The renderer lives at app://fieldbook/. IndexedDB (the offline cache and the
// outbox) is stored per origin, so this origin must never change between releases.
// `standard` gives it a real origin and relative URLs, `secure` makes it a secure
// context, `supportFetchAPI` lets the page fetch its own assets; without these
// IndexedDB is disabled for the scheme. It must be registered before `ready`.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

// Sandbox every renderer, whatever a window's options say.
app.enableSandbox();

// the name is resolved first: a link whose host leads back to this machine or its network is dropped
const openExternal = (url: string) => {
  void isPublicDestination(url, (host) => lookup(host, { all: true })).then((ok) =>
    ok ? shell.openExternal(url) : undefined,
  );
};

// Every web contents, including any we did not create on purpose, gets the same rules.
app.on('web-contents-created', (_event, contents) => {
  contents.on('will-navigate', (event) => void guardNavigation(event, event.url, devOrigin));
  contents.on('will-frame-navigate', (event) => void guardNavigation(event, event.url, devOrigin));
  contents.on('will-redirect', (event) => void guardNavigation(event, event.url, devOrigin));
  contents.on('will-attach-webview', (event) => refuseWebview(event));
  // deny window.open, target=_blank and middle-click windows; web links open in the system browser
  contents.setWindowOpenHandler(createWindowOpenHandler(openExternal));
});

let mainWindow: BrowserWindow | null = null;

/** The app's one window (a report is printed from it). */
function windowOrFail(): BrowserWindow {
  if (!mainWindow || mainWindow.isDestroyed()) throw new Error('The window is closed.');
  return mainWindow;
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Fieldbook',
    backgroundColor: '#ffffff',
    // Electron's secure defaults, said out loud (index.test.ts starts this shell on a fake Electron and holds them to
    // REQUIRED_WEB_PREFERENCES).
    webPreferences: {
      preload: preloadPath,
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
      // middle-click opens no windows (the window-open handler denies them too)
      disableBlinkFeatures: 'Auxclick',
      safeDialogs: true,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  // a crashed or frozen renderer: offer a reload (the cache and the outbox are on disk and stay intact)
  attachRecovery(window, {
    ask: (options) => dialog.showMessageBox(window, options),
    quit: () => app.quit(),
  });
  void window.loadURL(devServerUrl && devOrigin ? devServerUrl.href : APP_ENTRY_URL);
  return window;
}

async function start(): Promise<void> {
  await app.whenReady();

  // the version comes from package.json (app.getVersion), as electron-builder stamps it on the installer
  const identity = { name: 'Fieldbook', version: app.getVersion() };
  app.setAboutPanelOptions(aboutPanel(identity));
  Menu.setApplicationMenu(Menu.buildFromTemplate(appMenuTemplate(identity, process.platform)));

  protocol.handle(
    APP_SCHEME,
    createAppRequestHandler({ root: rendererRoot, readFile: (file) => readFile(file) }),
  );
  session.defaultSession.setPermissionRequestHandler(denyPermissionRequest);
  session.defaultSession.setPermissionCheckHandler(denyPermissionCheck);

  const userData = app.getPath('userData');
  const handlers = createHandlers({
    settingsDir: userData,
    keychain: new KeytarKeychain(),
    // Electron's network stack: system proxies and certificates apply to API calls.
    // never follow a redirect (it would carry the AccessToken header), whatever the caller asked
    fetch: (input, init) =>
      net.fetch(input instanceof URL ? input.href : input, { ...init, redirect: 'manual' }),
    demo: createDemo(path.join(userData, 'demo')),
    savePdf: createPdfSaver({
      printToPDF: async (options) => windowOrFail().webContents.printToPDF(options),
      showSaveDialog: (options) => dialog.showSaveDialog(windowOrFail(), options),
      writeFile: (file, data) => writeFile(file, data),
    }),
  });
  const unregister = registerIpcTransport(
    ipcMain,
    CHANNELS,
    (channel, arg, ctx) => dispatch(handlers, channel, arg, ctx),
    devOrigin,
  );

  mainWindow = createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
  });

  let disposed = false;
  app.on('before-quit', (event) => {
    if (disposed) return;
    event.preventDefault();
    disposed = true;
    unregister();
    void handlers.dispose().finally(() => app.quit());
  });
}

// One instance: a second launch focuses the existing window (two instances would
// share one IndexedDB and one outbox).
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.on('window-all-closed', () => app.quit());
  start().catch((error: unknown) => {
    console.error('Fieldbook could not start:', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
}
