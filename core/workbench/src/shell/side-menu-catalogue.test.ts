import { describe, expect, it } from 'vitest';
import { MENU_CATALOGUE_PAGES, menuKeyOf } from '@decisio/domain';
import { menuAllows, type WorkbenchUser } from '@decisio/sdk-plugin';
import { APP_PLUGINS } from '../main';

/** Every side-menu entry of the shipped plugins, with the plugin that adds it. */
const entries = APP_PLUGINS.flatMap((p) => (p.menuItems ?? []).filter((m) => m.location === 'side').map((m) => ({ plugin: p.id, ...m })));

describe('side menu and the menu catalogue', () => {
  it("decides every side-menu entry by a page of the menu catalogue, so a role's menus decide every entry", () => {
    expect(entries.length).toBeGreaterThan(20);
    const catalogue = new Set<string>(MENU_CATALOGUE_PAGES);
    const outside = entries.filter((m) => !catalogue.has(menuKeyOf(m) ?? '')).map((m) => `${m.id} (${String(menuKeyOf(m))})`);
    expect(outside).toEqual([]);
  });

  it('shows a user holding only the dashboard and projects menus nothing else of the side menu', () => {
    const user = { menus: [{ path: '/dashboard', children: [] }, { path: '/all-project', children: [] }] } as unknown as WorkbenchUser;
    const shown = entries.filter((m) => menuAllows(user, menuKeyOf(m))).map((m) => m.id);
    expect(shown).toContain('dashboard.home');
    expect(shown).toContain('projects.all');
    expect(shown).toContain('deploy.menu-deploy'); // the project area comes with the projects menu
    for (const id of ['support.menu', 'messages.side', 'ssh-terminal.menu', 'sdk-licence.menu', 'sdk-licence.admin-menu', 'feedback-control.menu', 'jobs.menu', 'logs.menu', 'storage.manage', 'admin.menu-users']) expect(shown, id).not.toContain(id);
  });
});
