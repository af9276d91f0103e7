import type { Knex } from 'knex';
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, USER_ROLE_ID, stableId } from '../ids';

/**
 * Data only (schema changes live in their own migrations): the default tenant, the system roles
 * `admin` (every permission) and `user`, and the console menu tree linked to those roles.
 */

interface SeedMenu {
  code: string;
  path: string | null;
  icon: string;
  permission?: string;
  /** Codes of the roles that see it. */
  roles: ('admin' | 'user')[];
  children?: SeedMenu[];
}

const both: ('admin' | 'user')[] = ['admin', 'user'];

const MENUS: SeedMenu[] = [
  { code: 'dashboard', path: '/dashboard', icon: 'dashboard', roles: both },
  { code: 'all-project', path: '/all-project', icon: 'projects', roles: both },
  { code: 'template-center', path: '/template-center', icon: 'layout-grid', roles: both },
  { code: 'job', path: '/job', icon: 'time', permission: 'jobs:read', roles: ['admin'] },
  { code: 'system-log', path: '/system-log', icon: 'history', permission: 'logs:read', roles: ['admin'] },
  { code: 'data-connection', path: '/data-connection', icon: 'data-connection', roles: both },
  { code: 'hyperparameter', path: '/hyperparameter', icon: 'settings', roles: both },
  { code: 'storage-manage', path: '/storage-manage', icon: 'database', roles: both },
  {
    code: 'admin',
    path: null,
    icon: 'shield',
    roles: ['admin'],
    children: [
      { code: 'admin.users', path: '/admin/users', icon: 'people', permission: 'users:read', roles: ['admin'] },
      { code: 'admin.roles', path: '/admin/roles', icon: 'key', permission: 'roles:read', roles: ['admin'] },
      { code: 'admin.menus', path: '/admin/menus', icon: 'menu', permission: 'menus:read', roles: ['admin'] },
      { code: 'admin.orgs', path: '/admin/orgs', icon: 'diagram-tree', permission: 'orgs:read', roles: ['admin'] },
      { code: 'admin.tenants', path: '/admin/tenants', icon: 'office', permission: 'tenants:read', roles: ['admin'] },
    ],
  },
];

const roleIds = { admin: ADMIN_ROLE_ID, user: USER_ROLE_ID } as const;

export async function up(knex: Knex): Promise<void> {
  const now = new Date();
  const stamps = { created_at: now, updated_at: now };
  await knex('tenants').insert({ id: DEFAULT_TENANT_ID, code: 'default', name: 'Default', status: 'enabled', ...stamps });
  await knex('roles').insert([
    { id: ADMIN_ROLE_ID, tenant_id: null, code: 'admin', name: 'System administrator', is_system: true, permissions: JSON.stringify(['*']), sort: 0, ...stamps },
    { id: USER_ROLE_ID, tenant_id: null, code: 'user', name: 'User', is_system: false, permissions: JSON.stringify([]), sort: 1, ...stamps },
  ]);
  const menus: Record<string, unknown>[] = [];
  const links: { role_id: string; menu_id: string }[] = [];
  const walk = (items: SeedMenu[], parentId: string | null) =>
    items.forEach((m, i) => {
      const id = stableId(`menu:${m.code}`);
      menus.push({
        id,
        parent_id: parentId,
        code: m.code,
        name: `menu.${m.code}`,
        path: m.path,
        icon: m.icon,
        sort: (i + 1) * 10,
        permission: m.permission ?? null,
        type: m.children ? 'group' : 'page',
        hidden: false,
        ...stamps,
      });
      for (const r of m.roles) links.push({ role_id: roleIds[r], menu_id: id });
      if (m.children) walk(m.children, id);
    });
  walk(MENUS, null);
  await knex('menus').insert(menus);
  await knex('role_menus').insert(links);
}

export async function down(knex: Knex): Promise<void> {
  await knex('role_menus').whereIn('role_id', [ADMIN_ROLE_ID, USER_ROLE_ID]).delete();
  await knex('menus').delete();
  await knex('roles').whereIn('id', [ADMIN_ROLE_ID, USER_ROLE_ID]).delete();
  await knex('tenants').where('id', DEFAULT_TENANT_ID).delete();
}
