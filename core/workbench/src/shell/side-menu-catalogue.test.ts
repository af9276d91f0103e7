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

  it('names each catalogue page in Admin → Menus and the role matrix as the side menu does, in both languages', () => {
    // the catalogue codes (seeded by the migrations) of the pages side-menu entries open
    const CODES: Record<string, string> = {
      '/dashboard': 'dashboard', '/all-project': 'all-project', '/template-center': 'template-center', '/dataset-manage': 'dataset-manage',
      '/data-connection': 'data-connection', '/hyperparameter': 'hyperparameter', '/storage-manage': 'storage-manage', '/job': 'job',
      '/system-log': 'system-log', '/gfs/online-trial': 'feedback-control', '/ssh': 'ssh', '/sdk-licence': 'sdk-licence', '/support': 'support',
      '/user-center/message': 'messages', '/admin/users': 'admin.users', '/admin/roles': 'admin.roles', '/admin/menus': 'admin.menus',
      '/admin/orgs': 'admin.orgs', '/admin/tenants': 'admin.tenants', '/admin/licences': 'admin.licences', '/admin/contacts': 'admin.contacts',
    };
    expect(Object.keys(CODES).sort()).toEqual([...MENU_CATALOGUE_PAGES].sort());
    const text = (bundle: unknown, key: string) => key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], bundle);
    const admin = APP_PLUGINS.find((p) => p.id === 'admin')!;
    const compared = new Set<string>();
    const differ: string[] = [];
    for (const e of entries) {
      const code = e.to ? CODES[e.to] : undefined;
      if (!code) continue;
      compared.add(e.to!);
      const plugin = APP_PLUGINS.find((p) => p.id === e.plugin)!;
      for (const locale of ['en-US', 'zh-CN'] as const) {
        const side = text(plugin.locales?.[locale], e.titleKey);
        const catalogue = text(admin.locales?.[locale], `menuNames.${code.replace(/[.-]/g, '_')}`);
        if (side !== catalogue) differ.push(`${e.id} ${locale}: side menu ${String(side)}, catalogue ${String(catalogue)}`);
      }
    }
    expect(differ).toEqual([]);
    expect(compared.size).toBe(MENU_CATALOGUE_PAGES.length);
  });
});
