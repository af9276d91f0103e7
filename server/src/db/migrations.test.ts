import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, TENANT_ADMIN_ROLE_ID, USER_ROLE_ID } from './ids';
import { migrationHistory, rollbackAll } from './migrator';
import { MENU_CATALOGUE_PAGES } from '@decisio/domain';
import { coreMigrations } from './migrations';
import * as keyBuiltinNames from './migrations/20261129231000_key_builtin_names';
import { RoleModel, MenuModel } from '../modules/access/models';
import { databases, startTestServer, type TestServer } from '../test/server';

describe('migration history', () => {
  it('is ordered and named YYYYMMDDHHMMSS_<verb>_<noun>', () => {
    const names = coreMigrations.map((m) => m.name);
    expect(names).toEqual([...names].sort());
    for (const n of names) expect(n).toMatch(/^\d{14}_[a-z]+_[a-z_]+$/);
    expect(migrationHistory([]).map((m) => m.name)).toEqual(names);
  });
});

describe.each(databases)('migrations on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('seeds the default tenant, the system roles and the menu tree', async () => {
    const knex = server.app.db.executor();
    expect(await knex('tenants').where('id', DEFAULT_TENANT_ID).first()).toMatchObject({ code: 'default', status: 'enabled' });
    const admin = await RoleModel.query(knex).findById(ADMIN_ROLE_ID);
    expect(admin).toMatchObject({ code: 'admin', isSystem: true, permissions: ['*'] });
    expect(admin!.createdAt).toBeInstanceOf(Date);
    const user = await RoleModel.query(knex).findById(USER_ROLE_ID);
    // The user role holds the permissions of the console pages it sees (the central route check).
    expect(user).toMatchObject({ code: 'user', isSystem: false, permissions: ['dashboard:use', 'projects:use', 'datasets:use', 'connections:use', 'templates:use', 'hyperparameters:use', 'storage:use'] });
    expect(await RoleModel.query(knex).findById(TENANT_ADMIN_ROLE_ID)).toMatchObject({ code: 'tenant-admin', isSystem: false, tenantId: null });
    const menus = await MenuModel.query(knex);
    expect(menus.map((m) => m.code).sort()).toEqual(
      [
        'admin',
        'admin.contacts',
        'admin.licences',
        'admin.menus',
        'admin.orgs',
        'admin.roles',
        'admin.tenants',
        'admin.users',
        'all-project',
        'dashboard',
        'data-connection',
        'dataset-manage',
        'feedback-control',
        'hyperparameter',
        'job',
        'messages',
        'sdk-licence',
        'ssh',
        'storage-manage',
        'support',
        'system-log',
        'template-center',
      ].sort(),
    );
    expect(menus.every((m) => m.id.length === 32 && typeof m.hidden === 'boolean')).toBe(true);
  });

  it('catalogues every page that decides a side-menu entry (MENU_CATALOGUE_PAGES), each held by the system administrator; the pages everyone saw go to every role', async () => {
    const knex = server.app.db.executor();
    const paths = ((await knex('menus').whereNotNull('path').select('path')) as { path: string }[]).map((r) => r.path);
    for (const page of MENU_CATALOGUE_PAGES) expect(paths, page).toContain(page);
    const held = async (roleId: string) =>
      ((await knex('role_menus as rm').join('menus as m', 'm.id', 'rm.menu_id').where('rm.role_id', roleId).whereNotNull('m.path').select('m.path')) as { path: string }[]).map((r) => r.path).sort();
    expect(await held(ADMIN_ROLE_ID)).toEqual([...MENU_CATALOGUE_PAGES].sort());
    for (const roleId of [USER_ROLE_ID, TENANT_ADMIN_ROLE_ID]) {
      const pages = await held(roleId);
      for (const page of ['/gfs/online-trial', '/ssh', '/sdk-licence', '/support', '/user-center/message']) expect(pages, `${roleId} ${page}`).toContain(page);
      expect(pages).not.toContain('/admin/licences');
      expect(pages).not.toContain('/admin/contacts');
    }
  });

  it('names the seeded roles and the default tenant by a translation key, as the seeded menus; a renamed one keeps its name', async () => {
    const knex = server.app.db.executor();
    const names = async () => ({
      admin: (await knex('roles').where('id', ADMIN_ROLE_ID).first('name')).name,
      tenantAdmin: (await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).first('name')).name,
      user: (await knex('roles').where('id', USER_ROLE_ID).first('name')).name,
      tenant: (await knex('tenants').where('id', DEFAULT_TENANT_ID).first('name')).name,
    });
    expect(await names()).toEqual({ admin: 'role.admin', tenantAdmin: 'role.tenant-admin', user: 'role.user', tenant: 'tenant.default' });
    // an instance whose administrator renamed some of them before this migration (one only in case)
    await knex('roles').where('id', ADMIN_ROLE_ID).update({ name: 'System administrator' });
    await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).update({ name: 'Branch managers' });
    await knex('roles').where('id', USER_ROLE_ID).update({ name: 'user' });
    await knex('tenants').where('id', DEFAULT_TENANT_ID).update({ name: 'Default' });
    await keyBuiltinNames.up(knex);
    expect(await names()).toEqual({ admin: 'role.admin', tenantAdmin: 'Branch managers', user: 'user', tenant: 'tenant.default' });
    await keyBuiltinNames.down(knex);
    expect(await names()).toEqual({ admin: 'System administrator', tenantAdmin: 'Branch managers', user: 'user', tenant: 'Default' });
    await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).update({ name: 'Tenant administrator' });
    await knex('roles').where('id', USER_ROLE_ID).update({ name: 'User' });
    await keyBuiltinNames.up(knex);
    expect(await names()).toEqual({ admin: 'role.admin', tenantAdmin: 'role.tenant-admin', user: 'role.user', tenant: 'tenant.default' });
  });

  it('rolls back completely and migrates again', async () => {
    await server.app.flush();
    await rollbackAll(server.app.db);
    const has = await server.app.db.knex.schema.hasTable('users');
    expect(has).toBe(false);
    expect(await server.app.migrate()).toHaveLength(coreMigrations.length);
    expect(await server.app.db.knex.schema.hasTable('users')).toBe(true);
  });
});
