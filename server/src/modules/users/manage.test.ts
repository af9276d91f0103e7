import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { ADMIN_ROLE_ID, TENANT_ADMIN_ROLE_ID, USER_ROLE_ID } from '../../db/ids';
import { createTenant, createUser, encryptedPassword, issueToken, signIn, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('user administration on %s', (kind) => {
  let server: TestServer;
  let admin: TestUser;
  let adminToken: string;
  let tenantAdminToken: string;
  let memberToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createUser(server, { roles: ['admin'] });
    adminToken = await issueToken(server, admin);
    tenantAdminToken = await issueToken(server, await createUser(server, { roles: ['tenant-admin'] }));
    memberToken = await issueToken(server, await createUser(server));
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signInWith = async (username: string, password: string) =>
    server.call('index/signIn', { body: { username, password: await encryptedPassword(server, password) } });

  it('adds an account with roles and an organisation; the temporary password must be changed first', async () => {
    const org = await server.call('orgs', { token: adminToken, body: { name: 'Sales' } });
    expect(org.status).toBe(200);
    const added = await server.call('users/addUser', {
      token: tenantAdminToken,
      body: { username: 'added_one', email: 'Added.One@example.com', mobile: '13800001111', roleIds: [USER_ROLE_ID], orgId: org.body.data.id },
    });
    expect(added.status).toBe(200);
    const { userId, temporaryPassword } = added.body.data;
    expect(temporaryPassword).toMatch(/^(?=.*\d)(?=.*[a-z])(?=.*[A-Z]).{14}$/);
    const row = await server.app.db.knex('users').where('id', userId).first();
    expect(row).toMatchObject({ username: 'added_one', email: 'added.one@example.com', org_id: org.body.data.id });
    expect(Boolean(row.must_change_password)).toBe(true);

    const signedIn = await signInWith('added_one', temporaryPassword);
    expect(signedIn.body.code).toBe(0);
    // The sign-in and who-am-I say so, for the client to take the user to the password change.
    expect(signedIn.body.data.mustChangePassword).toBe(true);
    const token = signedIn.body.data.accessToken;
    // Until the password changes, only who-am-I, the password change and sign-out answer.
    const me = await server.call('user/getUser', { token });
    expect(me.body.code).toBe(0);
    expect(me.body.data.mustChangePassword).toBe(true);
    const blocked = await server.call('project/getProjectList', { token, body: {} });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe(ErrorCode.passwordChangeRequired);

    const list = await server.call('users/getUserList', { token: adminToken, body: { orgId: org.body.data.id } });
    expect(list.body.data.rows.map((r: { userId: string }) => r.userId)).toEqual([userId]);
    expect(list.body.data.rows[0]).toMatchObject({ orgId: org.body.data.id, mustChangePassword: true, roleList: [expect.objectContaining({ code: 'user' })] });
    const byRole = await server.call(`users/getUserList?roleId=${TENANT_ADMIN_ROLE_ID}`, { method: 'GET', token: adminToken });
    expect(byRole.body.data.rows.every((r: { roleList: { code: string }[] }) => r.roleList.some((x) => x.code === 'tenant-admin'))).toBe(true);
    expect(byRole.body.data.total).toBe(1);
  });

  it('checks usernames and mobiles, and refuses taken ones on add', async () => {
    const taken = await server.call('users/checkNameAndPhone', { token: adminToken, body: { username: 'ADDED_ONE', mobile: '13800001111' } });
    expect(taken.body.data).toEqual({ usernameFree: false, mobileFree: false });
    const free = await server.call('users/checkNameAndPhone', { token: adminToken, body: { username: 'nobody_here' } });
    expect(free.body.data).toEqual({ usernameFree: true, mobileFree: null });
    const dup = await server.call('users/addUser', { token: adminToken, body: { username: 'added_one', email: 'x1@example.com', roleIds: [USER_ROLE_ID] } });
    expect(dup.body.code).toBe(ErrorCode.usernameRegistered);
    const bad = await server.call('users/checkNameAndPhone', { token: adminToken, body: {} });
    expect(bad.status).toBe(400);
  });

  it('updates roles and organisation, resets the password, deletes an account', async () => {
    const target = await createUser(server);
    const oldToken = await signIn(server, target);
    const upd = await server.call('users/updateUser', { token: tenantAdminToken, body: { userId: target.id, email: target.email, nickname: 'Renamed', roleIds: [TENANT_ADMIN_ROLE_ID, USER_ROLE_ID] } });
    expect(upd.status).toBe(200);
    const roles = await server.app.db.knex('user_roles').where('user_id', target.id).pluck('role_id');
    expect(roles.sort()).toEqual([TENANT_ADMIN_ROLE_ID, USER_ROLE_ID].sort());

    const reset = await server.call('users/resetPassword', { token: adminToken, body: { userId: target.id } });
    expect(reset.status).toBe(200);
    expect((await server.call('user/checkToken', { token: oldToken })).body.code).toBe(ErrorCode.tokenInvalid);
    expect((await signInWith(target.username, target.password)).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
    const fresh = await signInWith(target.username, reset.body.data.temporaryPassword);
    expect(fresh.body.code).toBe(0);
    expect((await server.call('project/getProjectList', { token: fresh.body.data.accessToken, body: {} })).body.code).toBe(ErrorCode.passwordChangeRequired);

    const del = await server.call('users/deleteUser', { token: adminToken, body: { userId: target.id } });
    expect(del.body.data).toEqual({ userId: target.id, deleted: true });
    expect(await server.app.db.knex('users').where('id', target.id).first()).toBeUndefined();
    expect((await server.call('users/deleteUser', { token: adminToken, body: { userId: target.id } })).status).toBe(404);
  });

  it('keeps tenant admins to their tenant and below their own rights', async () => {
    const otherTenant = await createTenant(server);
    // A tenant admin cannot give the system role, nor place an account in another tenant.
    const sys = await server.call('users/addUser', { token: tenantAdminToken, body: { username: 'would_be_root', email: 'r@example.com', roleIds: [ADMIN_ROLE_ID] } });
    expect(sys.status).toBe(403);
    expect(sys.body.code).toBe(ErrorCode.authorizationFailed);
    const elsewhere = await server.call('users/addUser', { token: tenantAdminToken, body: { username: 'elsewhere_1', email: 'e@example.com', roleIds: [USER_ROLE_ID], tenantId: otherTenant } });
    expect(elsewhere.body.code).toBe(ErrorCode.authorizationFailed);
    const stranger = await createUser(server, { tenantId: otherTenant });
    const hidden = await server.call('users/resetPassword', { token: tenantAdminToken, body: { userId: stranger.id } });
    expect(hidden.status).toBe(404);
    // A system admin places accounts in any tenant, with that tenant's roles only.
    const role = await server.call('roles', { token: adminToken, body: { code: 'analyst', name: 'Analyst', tenantId: otherTenant } });
    const placed = await server.call('users/addUser', { token: adminToken, body: { username: 'placed_one', email: 'p@example.com', roleIds: [role.body.data.id], tenantId: otherTenant } });
    expect(placed.status).toBe(200);
    const wrongRole = await server.call('users/addUser', { token: adminToken, body: { username: 'placed_two', email: 'p2@example.com', roleIds: [role.body.data.id] } });
    expect(wrongRole.body.code).toBe(ErrorCode.roleNotFound);
    const list = await server.call('users/getUserList', { token: adminToken, body: { tenantId: otherTenant } });
    expect(list.body.data.rows.map((r: { username: string }) => r.username).sort()).toEqual(['placed_one', stranger.username].sort());
    expect((await server.call('users/getUserList', { token: tenantAdminToken, body: { tenantId: otherTenant } })).body.code).toBe(ErrorCode.authorizationFailed);
  });

  it('answers 400 for bad input, 401 without a token, 403 without the permission', async () => {
    const calls: [string, unknown][] = [
      ['users/addUser', { username: 'ok_name_1', email: 'ok@example.com', roleIds: [USER_ROLE_ID] }],
      ['users/updateUser', { userId: admin.id, email: 'ok@example.com', roleIds: [USER_ROLE_ID] }],
      ['users/deleteUser', { userId: admin.id }],
      ['users/resetPassword', { userId: admin.id }],
      ['users/checkNameAndPhone', { username: 'ok_name_1' }],
    ];
    for (const [name, body] of calls) {
      expect((await server.call(name, { body })).status, name).toBe(401);
      const denied = await server.call(name, { token: memberToken, body });
      expect(denied.status, name).toBe(403);
      expect(denied.body.code, name).toBe(ErrorCode.userNotPermission);
      const bad = await server.call(name, { token: adminToken, body: { username: '!', userId: 'x', email: 'no' } });
      expect(bad.status, name).toBe(400);
    }
    const noRole = await server.call('users/addUser', { token: adminToken, body: { username: 'no_role_1', email: 'n@example.com', roleIds: [] } });
    expect(noRole.status).toBe(400);
    expect(noRole.body.errors).toHaveProperty('roleIds');
  });
});
