import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createTenant, createUser, issueToken, signIn, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('user management on %s', (kind) => {
  let server: TestServer;
  let admin: TestUser;
  let adminToken: string;
  let member: TestUser;
  let memberToken: string;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await createUser(server, { roles: ['admin'], username: 'admin_main' });
    adminToken = await signIn(server, admin);
    member = await createUser(server, { username: 'member_one' });
    memberToken = await issueToken(server, member);
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('GET users/getUserList', () => {
    it('pages the users of the caller tenant with their roles', async () => {
      const otherTenant = await createTenant(server);
      const stranger = await createUser(server, { tenantId: otherTenant, roles: ['admin'] });
      for (let i = 0; i < 3; i++) await createUser(server);

      const page1 = await server.call('users/getUserList?page=1&pageSize=2', { method: 'GET', token: adminToken });
      expect(page1.status).toBe(200);
      expect(page1.body.data).toMatchObject({ page: 1, pageSize: 2, total: 5 });
      expect(page1.body.data.rows).toHaveLength(2);
      const page3 = await server.call('users/getUserList?page=3&pageSize=2', { method: 'GET', token: adminToken });
      expect(page3.body.data.rows).toHaveLength(1);
      const all = await server.call('users/getUserList?pageSize=100', { method: 'GET', token: adminToken });
      const ids = all.body.data.rows.map((r: { userId: string }) => r.userId);
      expect(ids).toContain(member.id);
      expect(ids).not.toContain(stranger.id);
      const row = all.body.data.rows.find((r: { userId: string }) => r.userId === admin.id);
      expect(row).toMatchObject({ username: 'admin_main', status: 'enabled', roleList: [expect.objectContaining({ code: 'admin' })] });
      expect(row).not.toHaveProperty('passwordHash');

      const found = await server.call('users/getUserList?keyword=MEMBER_', { method: 'GET', token: adminToken });
      expect(found.body.data.rows.map((r: { userId: string }) => r.userId)).toEqual([member.id]);
      const viaPost = await server.call('users/getUserList', { token: adminToken, body: { keyword: 'member_one' } });
      expect(viaPost.body.data.total).toBe(1);
    });

    it('answers 400 for a bad page, 401 without a token, 403 for an ordinary user', async () => {
      const bad = await server.call('users/getUserList?page=0&pageSize=1000', { method: 'GET', token: adminToken });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.errors!).sort()).toEqual(['page', 'pageSize']);
      const anon = await server.call('users/getUserList', { method: 'GET' });
      expect(anon.status).toBe(401);
      const denied = await server.call('users/getUserList', { method: 'GET', token: memberToken });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    });
  });

  describe('users/stopUser and users/startUser', () => {
    it('stops an account, whose tokens stop working at once, and starts it again', async () => {
      const target = await createUser(server);
      const targetToken = await signIn(server, target);
      expect((await server.call('user/checkToken', { token: targetToken })).body.code).toBe(0);

      const stop = await server.call('users/stopUser', { token: adminToken, body: { userId: target.id } });
      expect(stop.status).toBe(200);
      expect(stop.body.data).toEqual({ userId: target.id, status: 'disabled' });
      const after = await server.call('user/checkToken', { token: targetToken });
      expect(after.status).toBe(403);
      expect(after.body.code).toBe(ErrorCode.userBanned);
      const sessions = await server.app.db.knex('sessions').where('user_id', target.id).whereNull('revoked_at');
      expect(sessions).toHaveLength(0);

      const signInWhileStopped = await server.call('user/checkToken', { token: await issueToken(server, target) });
      expect(signInWhileStopped.status).toBe(403);
      expect(signInWhileStopped.body.code).toBe(ErrorCode.userBanned);

      const start = await server.call('users/startUser', { token: adminToken, body: { userId: target.id } });
      expect(start.body.data).toEqual({ userId: target.id, status: 'enabled' });
      // The old token stays revoked; a new sign-in works.
      expect((await server.call('user/checkToken', { token: targetToken })).body.code).toBe(ErrorCode.tokenInvalid);
      expect((await server.call('user/checkToken', { token: await signIn(server, target) })).body.code).toBe(0);
    });

    it('answers 400 for a bad id, 401 without a token, 403 for an ordinary user', async () => {
      const bad = await server.call('users/stopUser', { token: adminToken, body: { userId: 'nope' } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('userId');
      expect((await server.call('users/stopUser', { body: { userId: member.id } })).status).toBe(401);
      const denied = await server.call('users/startUser', { token: memberToken, body: { userId: admin.id } });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    });

    it('refuses to stop oneself and hides users of other tenants', async () => {
      const self = await server.call('users/stopUser', { token: adminToken, body: { userId: admin.id } });
      expect(self.status).toBe(403);
      expect(self.body.code).toBe(ErrorCode.authorizationFailed);
      // Deleting oneself says why (the user centre deletes one's own account), not a bare authorisation failure.
      const selfDelete = await server.call('users/deleteUser', { token: adminToken, body: { userId: admin.id }, headers: { 'Accept-Language': 'en-US' } });
      expect(selfDelete.body).toMatchObject({ code: ErrorCode.deleteAccountFailed, message: 'Could not delete the account' });
      expect(await server.app.db.knex('users').where('id', admin.id).first('id')).toBeTruthy();
      const otherTenant = await createTenant(server);
      const stranger = await createUser(server, { tenantId: otherTenant });
      // A tenant admin does not reach another tenant's accounts (a system admin does, below).
      const tenantAdmin = await createUser(server, { roles: ['tenant-admin'] });
      const hidden = await server.call('users/stopUser', { token: await issueToken(server, tenantAdmin), body: { userId: stranger.id } });
      expect(hidden.status).toBe(404);
      expect(hidden.body.code).toBe(ErrorCode.userNotFound);
      const row = await server.app.db.knex('users').where('id', stranger.id).first();
      expect(row.status).toBe('enabled');
    });
  });
});
