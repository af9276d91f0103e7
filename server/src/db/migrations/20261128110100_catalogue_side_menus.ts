import type { Knex } from 'knex';
import { ADMIN_ROLE_ID, stableId } from '../ids';

/**
 * Data only (issue 19 item 2): the side-menu entries that had no page in the menu catalogue get
 * one, so every entry of the console's side menu is decided by the roles' menus
 * (`MENU_CATALOGUE_PAGES` of `@decisio/domain`; the project area is decided by the projects
 * menu). The pages every signed-in user saw before (feedback-control trial, SSH terminal, SDK
 * licence, support tickets, messages) are given to every role that exists now, so nobody loses
 * an entry by this migration; new roles get them by their matrix. The administration pages
 * (licence review, contact form entries) go to the system administrator.
 */

interface NewMenu {
  code: string;
  path: string;
  icon: string;
  sort: number;
  /** Under the `admin` group, for the system administrator only. */
  admin?: boolean;
}

const MENUS: NewMenu[] = [
  { code: 'feedback-control', path: '/gfs/online-trial', icon: 'automatic-updates', sort: 85 },
  { code: 'ssh', path: '/ssh', icon: 'console', sort: 86 },
  { code: 'sdk-licence', path: '/sdk-licence', icon: 'key', sort: 87 },
  { code: 'support', path: '/support', icon: 'help', sort: 92 },
  { code: 'messages', path: '/user-center/message', icon: 'notifications', sort: 91 },
  { code: 'admin.licences', path: '/admin/licences', icon: 'endorsed', sort: 60, admin: true },
  { code: 'admin.contacts', path: '/admin/contacts', icon: 'inbox', sort: 70, admin: true },
];

export async function up(knex: Knex): Promise<void> {
  const now = new Date();
  const adminGroup = stableId('menu:admin');
  const known = new Set(((await knex('menus').whereIn('path', MENUS.map((m) => m.path)).select('path')) as { path: string }[]).map((r) => r.path));
  const fresh = MENUS.filter((m) => !known.has(m.path));
  if (fresh.length === 0) return;
  await knex('menus').insert(
    fresh.map((m) => ({
      id: stableId(`menu:${m.code}`),
      parent_id: m.admin ? adminGroup : null,
      code: m.code,
      name: `menu.${m.code}`,
      path: m.path,
      icon: m.icon,
      sort: m.sort,
      permission: null,
      type: 'page',
      hidden: false,
      created_at: now,
      updated_at: now,
    })),
  );
  const roles = ((await knex('roles').select('id')) as { id: string }[]).map((r) => r.id);
  const links: { role_id: string; menu_id: string }[] = [];
  for (const m of fresh) {
    const menuId = stableId(`menu:${m.code}`);
    for (const roleId of m.admin ? [ADMIN_ROLE_ID] : roles) links.push({ role_id: roleId, menu_id: menuId });
  }
  if (links.length > 0) await knex('role_menus').insert(links);
}

export async function down(knex: Knex): Promise<void> {
  const ids = MENUS.map((m) => stableId(`menu:${m.code}`));
  await knex('role_menus').whereIn('menu_id', ids).delete();
  await knex('menus').whereIn('id', ids).delete();
}
