import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { userKeyHash } from './service';

describe.each(databases)('authorisation service on %s', (kind) => {
  let server: TestServer;
  let user: TestUser;
  let userToken: string;
  let adminToken: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    user = await createUser(server);
    userToken = await issueToken(server, user);
    adminToken = await issueToken(server, await createUser(server, { roles: ['admin'] }));
  });
  afterAll(async () => {
    await server?.stop();
  });
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });

  it('shows a user key once, keeps only its hash and refuses a new one while it is valid', async () => {
    const before = await call('userCenter/getServiceManagementList', userToken, {});
    expect(before.body.data.userKey).toBeNull();
    const created = await call('userCenter/createUserPrivateKey', userToken, {});
    expect(created.status).toBe(200);
    const key = created.body.data.key as string;
    expect(key).toMatch(/^dk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.data).toMatchObject({ prefix: key.slice(0, 10), expired: false });
    const days = (new Date(created.body.data.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);

    const stored = await server.app.db.knex('user_keys').where({ user_id: user.id });
    expect(stored).toHaveLength(1);
    expect(stored[0].key_sha256).toBe(userKeyHash(key));
    expect(JSON.stringify(stored)).not.toContain(key);

    const listed = await call('userCenter/getServiceManagementList', userToken, {});
    expect(listed.body.data.userKey).toMatchObject({ prefix: key.slice(0, 10), expired: false });
    expect(JSON.stringify(listed.body)).not.toContain(key);

    const refused = await call('userCenter/createUserPrivateKey', userToken, {});
    expect(refused.body.code).toBe(ErrorCode.userKeyNotExpired);

    // Once expired, a new key may (and must) be made.
    await server.app.db.knex('user_keys').where({ user_id: user.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await call('userCenter/getServiceManagementList', userToken, {})).body.data.userKey.expired).toBe(true);
    const renewed = await call('userCenter/createUserPrivateKey', userToken, {});
    expect(renewed.body.code).toBe(0);
    expect(renewed.body.data.key).not.toBe(key);
  });

  it('applies for the authorisation service; an administrator approves it for a year and the applicant is told', async () => {
    const created = await call('userCenter/createServiceManagement', userToken, { type: 'enterprise', company: 'ACME', description: 'Production use' });
    expect(created.body.data).toMatchObject({ type: 'enterprise', company: 'ACME', status: 'audit', startAt: null });
    const id = created.body.data.id as string;
    expect((await call('userCenter/createServiceManagement', userToken, { type: 'enterprise', description: 'again' })).body.code).toBe(ErrorCode.serviceManagementExists);
    expect((await call('userCenter/createServiceManagement', userToken, { type: 'student', description: 'I study' })).body.code).toBe(ErrorCode.studentOnly);

    const all = await call('userCenter/getServiceManagementList', adminToken, { scope: 'all' });
    expect(all.body.data.rows.map((r: { id: string }) => r.id)).toContain(id);
    const approved = await call('userCenter/reviewServiceManagement', adminToken, { id, approve: true, opinion: 'Welcome' });
    expect(approved.body.data).toMatchObject({ id, status: 'success', reviewOpinion: 'Welcome' });
    expect(new Date(approved.body.data.endAt).getTime() - new Date(approved.body.data.startAt).getTime()).toBe(365 * 86_400_000);
    expect((await call('userCenter/reviewServiceManagement', adminToken, { id, approve: false })).body.code).toBe(ErrorCode.licenceStateInvalid);
    const mine = await call('userCenter/getServiceManagementList', userToken, {});
    expect(mine.body.data.rows[0]).toMatchObject({ id, status: 'success' });
    const msgs = await call('message/getMessageList', userToken, {});
    expect(msgs.body.data.rows.find((m: { kind: string }) => m.kind === 'serviceReviewed').params).toMatchObject({ serviceId: id, approved: true });
  });

  it('refuses bad input, calls without a token, and administrator calls of ordinary users', async () => {
    for (const body of [{ type: 'gold', description: 'x' }, { type: 'common', description: '' }, { type: 'common', description: 'x', more: 1 }]) {
      expect((await call('userCenter/createServiceManagement', userToken, body)).status).toBe(400);
    }
    expect((await call('userCenter/createUserPrivateKey', userToken, { key: 'mine' })).status).toBe(400);
    expect((await call('userCenter/reviewServiceManagement', adminToken, { id: 'x', approve: true })).status).toBe(400);
    expect((await call('userCenter/reviewServiceManagement', adminToken, { id: 'a'.repeat(32), approve: true })).body.code).toBe(ErrorCode.serviceManagementNotFound);
    for (const name of ['userCenter/createServiceManagement', 'userCenter/getServiceManagementList', 'userCenter/createUserPrivateKey', 'userCenter/reviewServiceManagement']) {
      expect((await call(name, undefined, {})).status, name).toBe(401);
    }
    const own = await call('userCenter/createServiceManagement', userToken, { type: 'common', description: 'Try it' });
    const denied = await call('userCenter/reviewServiceManagement', userToken, { id: own.body.data.id, approve: true });
    expect(denied.status).toBe(403);
    expect((await call('userCenter/getServiceManagementList', userToken, { scope: 'all' })).status).toBe(403);
  });
});
