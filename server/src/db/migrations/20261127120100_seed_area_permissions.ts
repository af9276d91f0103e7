import type { Knex } from 'knex';
import { ADMIN_ROLE_ID, TENANT_ADMIN_ROLE_ID, USER_ROLE_ID, stableId } from '../ids';

/**
 * Administration (issue 19), data only: every console page gets the permission of the calls
 * behind it (`ROUTE_PERMISSIONS`), the `user` role holds the permissions of the pages it already
 * saw (so existing accounts keep working under the central route check), the dataset page gets
 * its menu, and the shared role `tenant-admin` administers its own tenant.
 */

const AREA_MENUS: Record<string, string> = {
  dashboard: 'dashboard:use',
  'all-project': 'projects:use',
  'template-center': 'templates:use',
  'data-connection': 'connections:use',
  hyperparameter: 'hyperparameters:use',
  'storage-manage': 'storage:use',
};

const USER_PERMISSIONS = ['dashboard:use', 'projects:use', 'datasets:use', 'connections:use', 'templates:use', 'hyperparameters:use', 'storage:use'];

const TENANT_ADMIN_PERMISSIONS = [
  ...USER_PERMISSIONS,
  'users:read',
  'users:write',
  'roles:read',
  'roles:write',
  'menus:read',
  'orgs:read',
  'orgs:write',
  'tenants:read',
  'logs:read',
  'jobs:read',
];
const TENANT_ADMIN_MENUS = ['dashboard', 'all-project', 'dataset-manage', 'template-center', 'data-connection', 'hyperparameter', 'storage-manage', 'job', 'system-log', 'admin', 'admin.users', 'admin.roles', 'admin.orgs', 'admin.tenants'];

export async function up(knex: Knex): Promise<void> {
  const now = new Date();
  for (const [code, permission] of Object.entries(AREA_MENUS)) {
    await knex('menus').where('code', code).update({ permission, updated_at: now });
  }
  const datasetMenu = stableId('menu:dataset-manage');
  await knex('menus').insert({
    id: datasetMenu,
    parent_id: null,
    code: 'dataset-manage',
    name: 'menu.dataset-manage',
    path: '/dataset-manage',
    icon: 'th',
    sort: 25,
    permission: 'datasets:use',
    type: 'page',
    hidden: false,
    created_at: now,
    updated_at: now,
  });
  await knex('role_menus').insert([
    { role_id: ADMIN_ROLE_ID, menu_id: datasetMenu },
    { role_id: USER_ROLE_ID, menu_id: datasetMenu },
  ]);
  await knex('roles').where('id', USER_ROLE_ID).update({ permissions: JSON.stringify(USER_PERMISSIONS), updated_at: now });
  await knex('roles').insert({
    id: TENANT_ADMIN_ROLE_ID,
    tenant_id: null,
    code: 'tenant-admin',
    name: 'Tenant administrator',
    is_system: false,
    permissions: JSON.stringify(TENANT_ADMIN_PERMISSIONS),
    sort: 1,
    created_at: now,
    updated_at: now,
  });
  await knex('role_menus').insert(TENANT_ADMIN_MENUS.map((code) => ({ role_id: TENANT_ADMIN_ROLE_ID, menu_id: stableId(`menu:${code}`) })));
}

export async function down(knex: Knex): Promise<void> {
  await knex('role_menus').where('role_id', TENANT_ADMIN_ROLE_ID).delete();
  await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).delete();
  await knex('roles').where('id', USER_ROLE_ID).update({ permissions: JSON.stringify([]) });
  await knex('role_menus').where('menu_id', stableId('menu:dataset-manage')).delete();
  await knex('menus').where('id', stableId('menu:dataset-manage')).delete();
  await knex('menus').whereIn('code', Object.keys(AREA_MENUS)).update({ permission: null });
}
