import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, HEADER } from '@decisio/domain';
import { systemClock } from '../clock';
import { newId } from '../db/ids';
import { AccessService } from '../modules/access/service';
import { SessionModel } from '../modules/sessions/models';
import { SessionService, hashToken } from '../modules/sessions/service';
import { UserModel } from '../modules/users/models';
import { createTenant, createUser, issueToken, type TestUser } from '../test/factories';
import { databases, startTestServer, type TestServer } from '../test/server';
import { createAuth } from './auth';
import type { AppContext, AuthUser } from './context';

/**
 * The auth step reads the caller in one statement per call and keeps nothing between calls: a
 * change made straight in the database (another process, an operator) shows on the very next call.
 */
describe.each(databases)('auth on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** A role of its own (shared by every tenant), with the given permissions; returns its id. */
  async function insertRole(code: string, permissions: string[], sort = 5): Promise<string> {
    const id = newId();
    const now = new Date();
    await server.app.db.knex('roles').insert({ id, tenant_id: null, code, name: `Role ${code}`, is_system: false, permissions: JSON.stringify(permissions), sort, created_at: now, updated_at: now });
    return id;
  }

  async function grant(user: TestUser, roleId: string): Promise<void> {
    await server.app.db.knex('user_roles').insert({ user_id: user.id, role_id: roleId });
  }

  it('sees a role taken away, given back and changed on the next call', async () => {
    const user = await createUser(server, { roles: [] });
    const token = await issueToken(server, user);
    const roleId = await insertRole(`reader_${newId().slice(0, 6)}`, ['users:read']);
    await grant(user, roleId);
    const list = () => server.call('users/getUserList', { token, body: { page: 1, pageSize: 5 } });

    expect((await list()).body.code).toBe(0);
    // Permission taken from the role.
    await server.app.db.knex('roles').where('id', roleId).update({ permissions: JSON.stringify([]) });
    const denied = await list();
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    // Given back.
    await server.app.db.knex('roles').where('id', roleId).update({ permissions: JSON.stringify(['users:read']) });
    expect((await list()).body.code).toBe(0);
    // The role taken from the user: no role left.
    await server.app.db.knex('user_roles').where({ user_id: user.id, role_id: roleId }).delete();
    const roleless = await list();
    expect(roleless.status).toBe(403);
    expect(roleless.body.code).toBe(ErrorCode.mustHaveRole);
    expect((await server.call('user/checkToken', { token })).body.code).toBe(ErrorCode.mustHaveRole);
    // A role given (back): the next call passes again.
    await grant(user, roleId);
    expect((await list()).body.code).toBe(0);
  });

  it('refuses a stopped account on its next call, also when stopped straight in the database', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    expect((await server.call('user/checkToken', { token })).body.code).toBe(0);
    await server.app.db.knex('users').where('id', user.id).update({ status: 'disabled' });
    const banned = await server.call('user/checkToken', { token });
    expect(banned.status).toBe(403);
    expect(banned.body.code).toBe(ErrorCode.userBanned);
    await server.app.db.knex('users').where('id', user.id).update({ status: 'enabled' });
    expect((await server.call('user/checkToken', { token })).body.code).toBe(0);
  });

  it('refuses a revoked or deleted session, a deleted user and a disabled tenant on the next call', async () => {
    const tenantId = await createTenant(server);
    const user = await createUser(server, { tenantId });
    const token = await issueToken(server, user);
    expect((await server.call('user/getUser', { token })).body.code).toBe(0);

    await server.app.db.knex('tenants').where('id', tenantId).update({ status: 'disabled' });
    const noTenant = await server.call('user/getUser', { token });
    expect(noTenant.status).toBe(403);
    expect(noTenant.body.code).toBe(ErrorCode.tenantNotExists);
    // The token itself is still good where no tenant is needed.
    expect((await server.call('user/checkToken', { token })).body.code).toBe(0);
    await server.app.db.knex('tenants').where('id', tenantId).update({ status: 'enabled' });
    expect((await server.call('user/getUser', { token })).body.code).toBe(0);

    await server.app.db.knex('sessions').where('token_hash', hashToken(token)).update({ revoked_at: new Date() });
    const revoked = await server.call('user/checkToken', { token });
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe(ErrorCode.tokenInvalid);

    const other = await createUser(server);
    const otherToken = await issueToken(server, other);
    expect((await server.call('user/checkToken', { token: otherToken })).body.code).toBe(0);
    await server.app.db.knex('users').where('id', other.id).delete();
    const gone = await server.call('user/checkToken', { token: otherToken });
    expect(gone.status).toBe(401);
    expect(gone.body.code).toBe(ErrorCode.tokenInvalid);
  });

  it('sets ctx.state.user as the session, user and roles read through the models give it', async () => {
    const user = await createUser(server, { roles: ['admin', 'user'] });
    const extra = await insertRole(`auditor_${newId().slice(0, 6)}`, ['logs:read', 'users:read'], 0);
    await grant(user, extra);
    const token = await issueToken(server, user);
    const db = server.app.db;
    const access = new AccessService(db);
    const sessions = new SessionService(db, systemClock, 3600_000);
    const auth = createAuth({ db, sessions, access });

    const ctx = {
      state: { user: null },
      get: (name: string) => (name === HEADER.authorization ? `Bearer ${token}` : ''),
      cookies: { get: () => undefined },
    } as unknown as AppContext;
    let passed = false;
    await auth(ctx, async () => {
      passed = true;
    });
    expect(passed).toBe(true);

    // What the auth step made before it read the caller in one statement.
    const session = (await SessionModel.query(db.knex).where('token_hash', hashToken(token)).first())!;
    const row = (await UserModel.query(db.knex).findById(user.id))!;
    const roles = await access.rolesOf(user.id);
    const expected: AuthUser = {
      id: row.id,
      username: row.username,
      nickname: row.nickname,
      tenantId: row.tenantId,
      roles: roles.map((r) => r.code),
      permissions: access.permissionsOf(roles),
      isSystemRole: roles.some((r) => r.isSystem),
      sessionId: session.id,
      expiresAt: session.expiresAt,
      roleList: roles.map((r) => ({ id: r.id, code: r.code, name: r.name, isSystem: r.isSystem })),
      mustChangePassword: row.mustChangePassword,
    };
    expect(roles.map((r) => r.code)).toHaveLength(3);
    expect(ctx.state.user).toEqual(expected);
    expect(ctx.state.user!.expiresAt).toBeInstanceOf(Date);
    expect(Object.keys(ctx.state.user!)).toEqual(Object.keys(expected));
  });
});
