/** The application menu: an About entry with the version on every platform, and nothing for developers. */
import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { aboutPanel, appMenuTemplate } from './app-menu.ts';

const identity = { name: 'Fieldbook', version: '1.2.3' };

/** Every item of the menu, submenus included. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}

describe('the application menu', () => {
  it.each(['darwin', 'win32', 'linux'])('has "About Fieldbook" on %s', (platform) => {
    expect(items(appMenuTemplate(identity, platform)).filter((item) => item.role === 'about')).toEqual([
      { role: 'about', label: 'About Fieldbook' },
    ]);
  });

  it('puts About in the app menu on macOS and under Help elsewhere', () => {
    const parentOfAbout = (platform: string) =>
      appMenuTemplate(identity, platform).find(
        (item) => Array.isArray(item.submenu) && item.submenu.some((child) => child.role === 'about'),
      )?.label;
    expect(parentOfAbout('darwin')).toBe('Fieldbook');
    expect(parentOfAbout('linux')).toBe('Help');
  });

  it('keeps copy and paste (an Edit menu) and offers no reload or developer tools', () => {
    for (const platform of ['darwin', 'linux']) {
      const roles = items(appMenuTemplate(identity, platform)).map((item) => item.role);
      expect(roles).toContain('editMenu');
      expect(
        roles.filter((role) => ['reload', 'forceReload', 'toggleDevTools', 'viewMenu'].includes(role ?? '')),
      ).toEqual([]);
    }
  });

  it('shows the name and the version in the About panel', () => {
    expect(aboutPanel(identity)).toMatchObject({ applicationName: 'Fieldbook', applicationVersion: '1.2.3' });
  });
});
