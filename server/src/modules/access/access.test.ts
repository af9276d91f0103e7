import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type MenuItem } from '@decisio/domain';
import { stableId } from '../../db/ids';
import { createTenant, createUser, issueToken, signIn, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

const menuId = (code: string) => stableId(`menu:${code}`);

describe.each(databases)('roles and menus on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let tenantAdminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    tenantAdminToken = await issueToken(server, await createUser(server, { roles: ['tenant-admin'] }));
    memberToken = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('a role with some menus decides the side menu and the calls of its users', async () => {
    const created = await server.call('roles', { token: tenantAdminToken, body: { code: 'viewer', name: 'Viewer' } });
    expect(created.status).toBe(200);
    const roleId = created.body.data.id;
    expect(created.body.data).toMatchObject({ code: 'viewer', permissions: [], isSystem: false });
    const set = await server.call('roles/permission', { method: 'PUT', token: tenantAdminToken, body: { roleId, menuIds: [menuId('dashboard'), menuId('all-project')] } });
    expect(set.status).toBe(200);
    expect(set.body.data.permissions).toEqual(['dashboard:use', 'projects:use']);
    const read = await server.call(`roles/menuIds/${roleId}`, { method: 'GET', token: tenantAdminToken });
    expect(read.body.data).toEqual({ roleId, menuIds: [menuId('all-project'), menuId('dashboard')].sort(), permissions: ['dashboard:use', 'projects:use'] });

    const tenantId = (await server.app.db.knex('users').join('sessions', 'sessions.user_id', 'users.id').first('users.tenant_id')).tenant_id;
    const viewer: TestUser = await createUser(server, { roles: [], tenantId });
    await server.app.db.knex('user_roles').insert({ user_id: viewer.id, role_id: roleId });
    const token = await signIn(server, viewer);
    const me = await server.call('user/getUser', { token });
    expect(me.body.data.menus.map((m: { code: string }) => m.code)).toEqual(['dashboard', 'all-project']);
    expect((await server.call('project/getProjectList', { token, body: {} })).status).toBe(200);
    for (const refusedCall of ['template/getTemplateList', 'users/getUserList', 'roles/getRoleList']) {
      const refused = await server.call(refusedCall, { token, body: {} });
      expect(refused.status, refusedCall).toBe(403);
      expect(refused.body.code, refusedCall).toBe(ErrorCode.userNotPermission);
    }
    expect((await server.call('file/getFreeSpace', { token, body: {} })).status).toBe(200); // files of projects

    // Taking the projects menu away takes the calls away on the next request.
    await server.call('roles/permission', { method: 'PUT', token: tenantAdminToken, body: { roleId, menuIds: [menuId('dashboard')] } });
    expect((await server.call('project/getProjectList', { token, body: {} })).body.code).toBe(ErrorCode.userNotPermission);
    expect((await server.call('user/getUser', { token })).body.data.menus.map((m: { code: string }) => m.code)).toEqual(['dashboard']);

    // A role held by a user is not deleted; once free it is.
    expect((await server.call(`roles/${roleId}`, { method: 'DELETE', token: tenantAdminToken })).body.code).toBe(ErrorCode.roleInUse);
    await server.app.db.knex('user_roles').where('role_id', roleId).delete();
    expect((await server.call(`roles/${roleId}`, { method: 'DELETE', token: tenantAdminToken })).status).toBe(200);
    expect((await server.call(`roles/${roleId}`, { method: 'GET', token: tenantAdminToken })).status).toBe(404);
  });

  it('lists and edits roles within what the caller may do', async () => {
    const list = await server.call('roles/list', { method: 'GET', token: tenantAdminToken });
    expect(list.body.data.map((r: { code: string }) => r.code)).toEqual(expect.arrayContaining(['admin', 'tenant-admin', 'user']));
    const page = await server.call('roles/getRoleList', { token: tenantAdminToken, body: { keyword: 'ADMIN', pageSize: 1 } });
    expect(page.body.data).toMatchObject({ total: 2, pageSize: 1 });
    const mine = await server.call('roles', { token: tenantAdminToken, body: { code: 'editor', name: 'Editor' } });
    const renamed = await server.call(`roles/${mine.body.data.id}`, { method: 'PUT', token: tenantAdminToken, body: { name: 'Chief editor' } });
    expect(renamed.body.data).toMatchObject({ name: 'Chief editor', code: 'editor', sort: 100 });
    expect((await server.call('roles', { token: tenantAdminToken, body: { code: 'EDITOR', name: 'Again' } })).body.code).toBe(ErrorCode.codeUsed);
    // Not above one's own rights: no tenant writes, no menu writes, no '*'; shared roles stay.
    const escalate = await server.call('roles/permission', { method: 'PUT', token: tenantAdminToken, body: { roleId: mine.body.data.id, menuIds: [], permissions: ['tenants:write'] } });
    expect(escalate.body.code).toBe(ErrorCode.authorizationFailed);
    const adminRole = list.body.data.find((r: { code: string }) => r.code === 'admin');
    expect((await server.call(`roles/${adminRole.id}`, { method: 'PUT', token: adminToken, body: { name: 'x' } })).body.code).toBe(ErrorCode.authorizationFailed);
    const userRole = list.body.data.find((r: { code: string }) => r.code === 'user');
    expect((await server.call(`roles/${userRole.id}`, { method: 'DELETE', token: tenantAdminToken })).body.code).toBe(ErrorCode.authorizationFailed);
    const unknown = await server.call('roles/permission', { method: 'PUT', token: adminToken, body: { roleId: mine.body.data.id, menuIds: [], permissions: ['made:up'] } });
    expect(unknown.status).toBe(400);
    // Another tenant's role is not found for a tenant admin.
    const other = await createTenant(server);
    const theirs = await server.call('roles', { token: adminToken, body: { code: 'theirs', name: 'Theirs', tenantId: other } });
    expect((await server.call(`roles/menuIds/${theirs.body.data.id}`, { method: 'GET', token: tenantAdminToken })).status).toBe(404);
    expect((await server.call(`roles/${theirs.body.data.id}`, { method: 'PUT', token: tenantAdminToken, body: { name: 'y' } })).body.code).toBe(ErrorCode.roleNotFound);
  });

  it('menus: tree, tree page, list and CRUD by system admins', async () => {
    const tree = await server.call('menus/tree', { method: 'GET', token: adminToken });
    const admin = tree.body.data.find((m: MenuItem) => m.code === 'admin');
    expect(admin.children.map((c: MenuItem) => c.code)).toEqual(['admin.users', 'admin.roles', 'admin.menus', 'admin.orgs', 'admin.tenants', 'admin.licences', 'admin.contacts']);
    const list = await server.call('menus/list', { method: 'GET', token: tenantAdminToken });
    expect(list.body.data.length).toBeGreaterThan(10);
    const page = await server.call('menus/treePage?page=1&pageSize=2&keyword=admin.', { method: 'GET', token: adminToken });
    expect(page.body.data).toMatchObject({ total: 1, rows: [expect.objectContaining({ code: 'admin' })] });

    const created = await server.call('menus', { token: adminToken, body: { code: 'admin.reports', name: 'Reports', path: '/admin/reports', parentId: admin.id, permission: 'logs:read' } });
    expect(created.body.data).toMatchObject({ type: 'page', parentId: admin.id, sort: 100 });
    expect((await server.call('menus', { token: adminToken, body: { code: 'admin.reports', name: 'Again' } })).body.code).toBe(ErrorCode.codeUsed);
    const moved = await server.call(`menus/${created.body.data.id}`, { method: 'PUT', token: adminToken, body: { parentId: null, hidden: true } });
    expect(moved.body.data).toMatchObject({ parentId: null, hidden: true });
    expect((await server.call(`menus/${admin.id}`, { method: 'PUT', token: adminToken, body: { parentId: admin.children[0].id } })).status).toBe(400);
    expect((await server.call(`menus/${admin.id}`, { method: 'DELETE', token: adminToken })).body.code).toBe(ErrorCode.menuHasChildren);
    expect((await server.call(`menus/${created.body.data.id}`, { method: 'DELETE', token: adminToken })).status).toBe(200);
    expect((await server.call(`menus/${created.body.data.id}`, { method: 'DELETE', token: adminToken })).body.code).toBe(ErrorCode.menuNotFound);
    // Tenant admins read menus but do not change the shared catalogue.
    expect((await server.call('menus', { token: tenantAdminToken, body: { code: 'x.y', name: 'X' } })).body.code).toBe(ErrorCode.userNotPermission);
  });

  it('answers 400 for bad input, 401 without a token, 403 without the permission', async () => {
    const id = '0'.repeat(32);
    const calls: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', unknown][] = [
      ['roles/list', 'GET', undefined],
      ['roles/getRoleList', 'POST', {}],
      ['roles', 'POST', { code: 'ok', name: 'Ok' }],
      [`roles/${id}`, 'PUT', { name: 'Ok' }],
      [`roles/${id}`, 'DELETE', undefined],
      ['roles/permission', 'PUT', { roleId: id, menuIds: [] }],
      [`roles/menuIds/${id}`, 'GET', undefined],
      ['menus/tree', 'GET', undefined],
      ['menus/treePage', 'GET', undefined],
      ['menus/list', 'GET', undefined],
      ['menus', 'POST', { code: 'ok.menu', name: 'Ok' }],
      [`menus/${id}`, 'PUT', { name: 'Ok' }],
      [`menus/${id}`, 'DELETE', undefined],
    ];
    for (const [name, method, body] of calls) {
      expect((await server.call(name, { method, body })).status, name).toBe(401);
      const denied = await server.call(name, { method, body, token: memberToken });
      expect(denied.status, name).toBe(403);
      expect(denied.body.code, name).toBe(ErrorCode.userNotPermission);
    }
    const bad: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', unknown][] = [
      ['roles/getRoleList', 'POST', { pageSize: 1000 }],
      ['roles', 'POST', { code: '1 bad', name: '' }],
      ['roles/nothex', 'PUT', { name: 'Ok' }],
      ['roles/nothex', 'DELETE', undefined],
      ['roles/permission', 'PUT', { roleId: 'x', menuIds: 'no' }],
      ['roles/menuIds/nothex', 'GET', undefined],
      ['menus/treePage?page=0', 'GET', undefined],
      ['menus', 'POST', { code: 'Bad Code', name: 'x', path: 'no-slash' }],
      ['menus/nothex', 'PUT', { name: 'Ok' }],
      ['menus/nothex', 'DELETE', undefined],
    ];
    for (const [name, method, body] of bad) {
      const r = await server.call(name, { method, body, token: adminToken });
      expect(r.status, name).toBe(400);
      expect(r.body.code, name).toBe(ErrorCode.paramInvalid);
    }
  });
});
