/**
 * The application menu: the platform's usual Edit and Window entries (copy and
 * paste need an Edit menu on macOS) and an About entry that shows Fieldbook's
 * version, in the app menu on macOS and under Help elsewhere. No reload or
 * developer tools: a release shows only what a coordinator uses.
 */
import type { AboutPanelOptionsOptions, MenuItemConstructorOptions } from 'electron';

interface AppIdentity {
  name: string;
  version: string;
}

/** What the About entry shows (Electron's own About panel on every platform). */
export function aboutPanel({ name, version }: AppIdentity): AboutPanelOptionsOptions {
  return {
    applicationName: name,
    applicationVersion: version,
    version: '',
    copyright: 'Offline-first desktop app for compliance coordinators.',
  };
}

const editMenu: MenuItemConstructorOptions = { role: 'editMenu' };

/** The menu's template for `platform` (process.platform). */
export function appMenuTemplate({ name }: AppIdentity, platform: string): MenuItemConstructorOptions[] {
  const about: MenuItemConstructorOptions = { role: 'about', label: `About ${name}` };
  if (platform === 'darwin') {
    const appMenu: MenuItemConstructorOptions[] = [
      about,
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
    ];
    return [
      { label: name, submenu: [...appMenu, { type: 'separator' }, { role: 'quit' }] },
      editMenu,
      { role: 'windowMenu' },
    ];
  }
  return [{ label: 'File', submenu: [{ role: 'quit' }] }, editMenu, { label: 'Help', submenu: [about] }];
}
