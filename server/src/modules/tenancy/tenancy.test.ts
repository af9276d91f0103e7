import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type OrgItem, type TenantItem } from '@decisio/domain';
import { DEFAULT_TENANT_ID } from '../../db/ids';
import { createUser, issueToken, signUpBody } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('tenants and organisations on %s', (kind) => {
  let server: TestServer;
  let adminToken: string;
  let tenantAdminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    // The first account of an instance is made by sign-up; these come after it.
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
    tenantAdminToken = await issueToken(server, await createUser(server, { roles: ['tenant-admin'] }));
    memberToken = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('creates, pages, edits and deletes tenants; system admins see all, tenant admins their own', async () => {
    const added = await server.call('tenant/addTenant', {
      token: adminToken,
      body: { code: 'acme', name: 'Acme', domain: 'Acme.example.com', storageQuotaBytes: 1024 ** 3, maxTrainings: 2, maxServices: 1 },
    });
    expect(added.status).toBe(200);
    const acme: TenantItem = added.body.data;
    expect(acme).toMatchObject({ code: 'acme', domain: 'acme.example.com', status: 'enabled', storageQuotaBytes: 1024 ** 3, maxTrainings: 2, maxServices: 1, userCount: 0 });
    expect(acme.inviteCode).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect((await server.call('tenant/addTenant', { token: adminToken, body: { code: 'acme', name: 'Again' } })).body.code).toBe(ErrorCode.tenantCodeUsed);

    const all = await server.call('tenant/list', { method: 'GET', token: adminToken });
    expect(all.body.data.map((t: TenantItem) => t.code)).toEqual(['default', 'acme']);
    const own = await server.call('tenant/list', { method: 'GET', token: tenantAdminToken });
    expect(own.body.data.map((t: TenantItem) => t.id)).toEqual([DEFAULT_TENANT_ID]);
    const page = await server.call('tenant/page', { token: adminToken, body: { keyword: 'ACM', pageSize: 5 } });
    expect(page.body.data).toMatchObject({ total: 1, rows: [expect.objectContaining({ id: acme.id })] });
    expect((await server.call(`tenant/${acme.id}`, { method: 'GET', token: tenantAdminToken })).body.code).toBe(ErrorCode.tenantNotExists);

    const edited = await server.call('tenant/uplTenant', { token: adminToken, body: { id: acme.id, name: 'Acme Ltd', maxTrainings: null, renewInvite: true } });
    expect(edited.body.data).toMatchObject({ name: 'Acme Ltd', maxTrainings: null, maxServices: 1 });
    expect(edited.body.data.inviteCode).not.toBe(acme.inviteCode);
    const quota = await server.app.db.knex('storage_quotas').where({ scope: 'tenant', owner_id: acme.id }).first();
    expect(Number(quota.total_bytes)).toBe(1024 ** 3);
    // Tenant admins do not change tenants, not even their own.
    const denied = await server.call('tenant/uplTenant', { token: tenantAdminToken, body: { id: DEFAULT_TENANT_ID, name: 'Mine' } });
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);

    // A tenant holding an account is not deleted; an empty one is, with its organisations and roles.
    await createUser(server, { tenantId: acme.id });
    expect((await server.call(`tenant/${acme.id}`, { method: 'DELETE', token: adminToken })).body.code).toBe(ErrorCode.tenantHasData);
    await server.app.db.knex('users').where('tenant_id', acme.id).delete();
    await server.call('orgs', { token: adminToken, body: { name: 'Acme HQ', tenantId: acme.id } });
    await server.call('roles', { token: adminToken, body: { code: 'acme-role', name: 'R', tenantId: acme.id } });
    expect((await server.call(`tenant/${acme.id}`, { method: 'DELETE', token: adminToken })).status).toBe(200);
    expect(await server.app.db.knex('tenants').where('id', acme.id).first()).toBeUndefined();
    expect(await server.app.db.knex('roles').where('tenant_id', acme.id).first()).toBeUndefined();
    // The default tenant holds the system admin: refused for that reason (README), not a bare authorisation failure.
    const defaultTenant = await server.call(`tenant/${DEFAULT_TENANT_ID}`, { method: 'DELETE', token: adminToken, headers: { 'Accept-Language': 'en-US' } });
    expect(defaultTenant.body).toMatchObject({ code: ErrorCode.tenantHasData, message: 'The tenant still holds users, projects or files; remove them first' });
  });

  it('a sign-up joins the tenant of its invitation, else of its e-mail domain, else the default one', async () => {
    const t = (await server.call('tenant/addTenant', { token: adminToken, body: { code: 'globex', name: 'Globex', domain: 'globex.example.com' } })).body.data as TenantItem;
    const byInvite = await server.call('index/signUp', { body: await signUpBody(server, { invite: t.inviteCode! }) });
    expect(byInvite.body.code).toBe(0);
    const byDomain = await server.call('index/signUp', { body: await signUpBody(server, { email: `someone@globex.example.com` }) });
    expect(byDomain.body.code).toBe(0);
    const plain = await server.call('index/signUp', { body: await signUpBody(server) });
    const tenantOf = async (id: string) => (await server.app.db.knex('users').where('id', id).first('tenant_id')).tenant_id;
    expect(await tenantOf(byInvite.body.data.userId)).toBe(t.id);
    expect(await tenantOf(byDomain.body.data.userId)).toBe(t.id);
    expect(await tenantOf(plain.body.data.userId)).toBe(DEFAULT_TENANT_ID);
    const wrong = await server.call('index/signUp', { body: await signUpBody(server, { invite: 'no-such-invite' }) });
    expect(wrong.body.code).toBe(ErrorCode.inviteInvalid);
  });

  it('organisations: tree, list and CRUD within the tenant', async () => {
    const hq = (await server.call('orgs', { token: tenantAdminToken, body: { name: 'HQ' } })).body.data as OrgItem;
    const sales = (await server.call('orgs', { token: tenantAdminToken, body: { name: 'Sales', parentId: hq.id, sort: 1 } })).body.data as OrgItem;
    const tree = await server.call('orgs/tree', { method: 'GET', token: tenantAdminToken });
    expect(tree.body.data).toEqual([expect.objectContaining({ id: hq.id, children: [expect.objectContaining({ id: sales.id, userCount: 0 })] })]);
    const list = await server.call('orgs/list', { method: 'GET', token: tenantAdminToken });
    expect(list.body.data.map((o: OrgItem) => o.name)).toEqual(['Sales', 'HQ']);
    expect((await server.call(`orgs/${hq.id}`, { method: 'PUT', token: tenantAdminToken, body: { parentId: sales.id } })).status).toBe(400);
    const renamed = await server.call(`orgs/${sales.id}`, { method: 'PUT', token: tenantAdminToken, body: { name: 'Sales East' } });
    expect(renamed.body.data).toMatchObject({ name: 'Sales East', parentId: hq.id });
    expect((await server.call(`orgs/${hq.id}`, { method: 'DELETE', token: tenantAdminToken })).body.code).toBe(ErrorCode.orgHasMembers);
    const member = await createUser(server);
    await server.app.db.knex('users').where('id', member.id).update({ org_id: sales.id });
    expect((await server.call(`orgs/${sales.id}`, { method: 'DELETE', token: tenantAdminToken })).body.code).toBe(ErrorCode.orgHasMembers);
    await server.app.db.knex('users').where('id', member.id).update({ org_id: null });
    expect((await server.call(`orgs/${sales.id}`, { method: 'DELETE', token: tenantAdminToken })).status).toBe(200);

    // Another tenant's organisation is not found; its tree is out of reach for a tenant admin.
    const other = (await server.call('tenant/addTenant', { token: adminToken, body: { code: 'initech', name: 'Initech' } })).body.data as TenantItem;
    const theirs = (await server.call('orgs', { token: adminToken, body: { name: 'Theirs', tenantId: other.id } })).body.data as OrgItem;
    expect((await server.call(`orgs/${theirs.id}`, { method: 'PUT', token: tenantAdminToken, body: { name: 'Mine' } })).body.code).toBe(ErrorCode.orgNotFound);
    expect((await server.call(`orgs/tree?tenantId=${other.id}`, { method: 'GET', token: tenantAdminToken })).body.code).toBe(ErrorCode.authorizationFailed);
    const theirTree = await server.call(`orgs/tree?tenantId=${other.id}`, { method: 'GET', token: adminToken });
    expect(theirTree.body.data.map((o: OrgItem) => o.id)).toEqual([theirs.id]);
  });

  it('answers 400 for bad input, 401 without a token, 403 without the permission', async () => {
    const id = '0'.repeat(32);
    const calls: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', unknown][] = [
      ['orgs/tree', 'GET', undefined],
      ['orgs/list', 'GET', undefined],
      ['orgs', 'POST', { name: 'Ok' }],
      [`orgs/${id}`, 'PUT', { name: 'Ok' }],
      [`orgs/${id}`, 'DELETE', undefined],
      ['tenant/list', 'GET', undefined],
      ['tenant/page', 'POST', {}],
      ['tenant/addTenant', 'POST', { code: 'okay', name: 'Ok' }],
      ['tenant/uplTenant', 'POST', { id, name: 'Ok' }],
      [`tenant/${id}`, 'DELETE', undefined],
    ];
    for (const [name, method, body] of calls) {
      expect((await server.call(name, { method, body })).status, name).toBe(401);
      const denied = await server.call(name, { method, body, token: memberToken });
      expect(denied.status, name).toBe(403);
      expect(denied.body.code, name).toBe(ErrorCode.userNotPermission);
    }
    const bad: [string, 'GET' | 'POST' | 'PUT' | 'DELETE', unknown][] = [
      ['orgs/tree?tenantId=x', 'GET', undefined],
      ['orgs', 'POST', { name: '' }],
      ['orgs/nothex', 'PUT', { name: 'Ok' }],
      ['orgs/nothex', 'DELETE', undefined],
      ['tenant/page', 'POST', { page: 0 }],
      ['tenant/addTenant', 'POST', { code: 'Bad Code', name: 'x', storageQuotaBytes: -1 }],
      ['tenant/uplTenant', 'POST', { id: 'x' }],
      ['tenant/nothex', 'DELETE', undefined],
    ];
    for (const [name, method, body] of bad) {
      const r = await server.call(name, { method, body, token: adminToken });
      expect(r.status, name).toBe(400);
    }
  });
});
