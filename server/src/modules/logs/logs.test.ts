import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createTenant, createUser, issueToken, signIn, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { createRoleUser } from './testing';

describe.each(databases)('system log on %s', (kind) => {
  let server: TestServer;
  let admin: TestUser;
  let adminToken: string;
  let memberToken: string;
  let tenantAdmin: TestUser;
  let tenantAdminToken: string;
  let readerToken: string;
  let otherTenant: string;

  /** Inserts a log row directly (an old row, a row of another tenant). */
  async function row(fields: Record<string, unknown>): Promise<string> {
    const id = newId();
    await server.app.db.knex('logs').insert({
      id,
      title: 'x/y',
      type: 'operation',
      host: 'h',
      uri: '/api/x/y',
      method: 'POST',
      params: null,
      response_code: 0,
      http_status: 200,
      time_ms: 1,
      user_id: null,
      username: 'someone',
      tenant_id: null,
      request_id: 'r',
      ip: null,
      user_agent: null,
      created_at: new Date(),
      ...fields,
    });
    return id;
  }

  beforeAll(async () => {
    server = await startTestServer(kind, { audit: { flushIntervalMs: 10 } });
    admin = await createUser(server, { roles: ['admin'] });
    adminToken = await signIn(server, admin);
    memberToken = await issueToken(server, await createUser(server));
    otherTenant = await createTenant(server);
    tenantAdmin = await createRoleUser(server, ['logs:read', 'logs:write'], otherTenant);
    tenantAdminToken = await issueToken(server, tenantAdmin);
    readerToken = await issueToken(server, await createRoleUser(server, ['logs:read'], otherTenant));
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('POST logs/page', () => {
    it('filters by user, module, call, result and time range, newest first', async () => {
      // Calls that the audit trail records: one success and one failure of the same caller.
      expect((await server.call('user/checkToken', { token: adminToken })).body.code).toBe(0);
      expect((await server.call('users/stopUser', { token: adminToken, body: { userId: admin.id } })).status).toBe(403);
      await server.app.flush();

      const mine = await server.call('logs/page', { token: adminToken, body: { username: admin.username.toUpperCase(), pageSize: 100 } });
      expect(mine.status).toBe(200);
      const titles = mine.body.data.rows.map((r: { title: string }) => r.title);
      expect(titles).toEqual(expect.arrayContaining(['user/checkToken', 'users/stopUser']));
      const stamps = mine.body.data.rows.map((r: { createdAt: string }) => Date.parse(r.createdAt));
      expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);

      const failed = await server.call('logs/page', { token: adminToken, body: { username: admin.username, module: 'users', result: 'failure' } });
      expect(failed.body.data.rows.map((r: { title: string }) => r.title)).toEqual(['users/stopUser']);
      expect(failed.body.data.rows[0]).toMatchObject({ responseCode: ErrorCode.authorizationFailed, httpStatus: 403, method: 'POST', type: 'error', userId: admin.id });
      const byCall = await server.call('logs/page', { token: adminToken, body: { username: admin.username, call: 'CHECKTOKEN', result: 'success' } });
      expect(byCall.body.data.total).toBe(1);

      const old = await row({ username: 'ancient', created_at: new Date('2020-01-02T00:00:00Z') });
      const inRange = await server.call('logs/page', { token: adminToken, body: { from: '2020-01-01T00:00:00Z', to: '2020-01-03T00:00:00+00:00' } });
      expect(inRange.body.data.rows.map((r: { id: string }) => r.id)).toEqual([old]);
      const after = await server.call('logs/page', { token: adminToken, body: { from: '2020-01-02T00:00:00.001Z', username: 'ancient' } });
      expect(after.body.data.total).toBe(0);
    });

    it('shows a tenant administrator only the rows of their tenant', async () => {
      const theirs = await row({ tenant_id: otherTenant, username: 'tenant_row' });
      const foreign = await row({ tenant_id: admin.tenantId, username: 'tenant_row' });
      const seen = await server.call('logs/page', { token: tenantAdminToken, body: { username: 'tenant_row' } });
      expect(seen.body.data.rows.map((r: { id: string }) => r.id)).toEqual([theirs]);
      // Even asking for another tenant by id.
      const asked = await server.call('logs/page', { token: tenantAdminToken, body: { username: 'tenant_row', tenantId: admin.tenantId } });
      expect(asked.body.data.total).toBe(0);
      const all = await server.call('logs/page', { token: adminToken, body: { username: 'tenant_row' } });
      expect(all.body.data.rows.map((r: { id: string }) => r.id).sort()).toEqual([theirs, foreign].sort());
      const one = await server.call('logs/page', { token: adminToken, body: { username: 'tenant_row', tenantId: otherTenant } });
      expect(one.body.data.rows.map((r: { id: string }) => r.id)).toEqual([theirs]);
    });

    it('answers 400 for bad filters, 401 without a token, 403 without the permission', async () => {
      const bad = await server.call('logs/page', { token: adminToken, body: { module: 'a b', result: 'maybe', from: 'yesterday', page: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(bad.body.errors!).sort()).toEqual(['from', 'module', 'page', 'result']);
      const reversed = await server.call('logs/page', { token: adminToken, body: { from: '2024-01-02T00:00:00Z', to: '2024-01-01T00:00:00Z' } });
      expect(reversed.status).toBe(400);
      expect(reversed.body.errors).toHaveProperty('to');
      expect((await server.call('logs/page', { body: {} })).status).toBe(401);
      const denied = await server.call('logs/page', { token: memberToken, body: {} });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    });
  });

  describe('DELETE logs/delete', () => {
    it('deletes rows by id or age, within the caller tenant', async () => {
      const a = await row({ tenant_id: otherTenant });
      const b = await row({ tenant_id: admin.tenantId });
      const res = await server.call('logs/delete', { method: 'DELETE', token: tenantAdminToken, body: { ids: [a, b] } });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ deleted: 1 });
      expect(await server.app.db.knex('logs').whereIn('id', [a, b]).pluck('id')).toEqual([b]);

      const old = await row({ tenant_id: otherTenant, created_at: new Date('2019-05-01T00:00:00Z') });
      const recent = await row({ tenant_id: otherTenant });
      const byAge = await server.call('logs/delete', { method: 'DELETE', token: adminToken, body: { before: '2019-06-01T00:00:00Z' } });
      expect(byAge.body.data.deleted).toBeGreaterThanOrEqual(1);
      expect(await server.app.db.knex('logs').whereIn('id', [old, recent]).pluck('id')).toEqual([recent]);
    });

    it('answers 400 for an empty or bad body, 401 without a token, 403 for a reader', async () => {
      const empty = await server.call('logs/delete', { method: 'DELETE', token: adminToken, body: {} });
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toHaveProperty('ids');
      const bad = await server.call('logs/delete', { method: 'DELETE', token: adminToken, body: { ids: ['nope'] } });
      expect(bad.status).toBe(400);
      expect((await server.call('logs/delete', { method: 'DELETE', body: { ids: [newId()] } })).status).toBe(401);
      const denied = await server.call('logs/delete', { method: 'DELETE', token: readerToken, body: { ids: [newId()] } });
      expect(denied.status).toBe(403);
      expect(denied.body.code).toBe(ErrorCode.userNotPermission);
      // The spec's verb only.
      expect((await server.call('logs/delete', { token: adminToken, body: { ids: [newId()] } })).status).toBe(404);
    });
  });

  describe('GET logs/export', () => {
    it('writes the filtered rows as CSV, quoting and defusing formulas, with the cookie token', async () => {
      await row({ tenant_id: otherTenant, username: 'csv_user', title: 'x/quote', params: '{"a":"b, \\"c\\""}' });
      await row({ tenant_id: otherTenant, username: 'csv_user', title: '=cmd|calc' });
      await row({ tenant_id: admin.tenantId, username: 'csv_user', title: 'x/foreign' });
      const res = await server.fetch('/api/logs/export?username=csv_user', { headers: { Cookie: `token=${tenantAdminToken}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/csv');
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="system-log-\d+\.csv"/);
      const bytes = Buffer.from(await res.arrayBuffer());
      // A byte-order mark first, so that spreadsheets read the UTF-8 text.
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const text = bytes.subarray(3).toString('utf8');
      const lines = text.trim().split('\r\n');
      expect(lines[0]).toBe('createdAt,username,tenantId,type,title,method,uri,responseCode,httpStatus,timeMs,ip,requestId,params');
      expect(lines).toHaveLength(3);
      expect(text).toContain(`"{""a"":""b, \\""c\\""""}"`);
      expect(text).toContain(",'=cmd|calc,");
      expect(text).not.toContain('x/foreign');
    });

    it('answers 400 for a bad filter, 401 without a token, 403 without the permission', async () => {
      expect((await server.fetch('/api/logs/export?result=maybe', { headers: { Authorization: adminToken } })).status).toBe(400);
      expect((await server.fetch('/api/logs/export')).status).toBe(401);
      expect((await server.fetch('/api/logs/export', { headers: { Authorization: memberToken } })).status).toBe(403);
    });
  });

  describe('logs/getRetention and logs/setRetention', () => {
    it('keeps the retention, set by a system administrator', async () => {
      const before = await server.call('logs/getRetention', { method: 'GET', token: tenantAdminToken });
      expect(before.body.data).toEqual({ days: 180, updatedAt: null, updatedBy: null });
      const set = await server.call('logs/setRetention', { token: adminToken, body: { days: 30 } });
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ days: 30, updatedBy: admin.username });
      const again = await server.call('logs/setRetention', { token: adminToken, body: { days: 45 } });
      expect(again.body.data.days).toBe(45);
      expect((await server.call('logs/getRetention', { method: 'GET', token: adminToken })).body.data.days).toBe(45);
    });

    it('answers 400 for a bad value, 401 without a token, 403 for a tenant administrator', async () => {
      const bad = await server.call('logs/setRetention', { token: adminToken, body: { days: 0 } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toHaveProperty('days');
      expect((await server.call('logs/setRetention', { body: { days: 10 } })).status).toBe(401);
      expect((await server.call('logs/getRetention', { method: 'GET' })).status).toBe(401);
      const tenantLevel = await server.call('logs/setRetention', { token: tenantAdminToken, body: { days: 10 } });
      expect(tenantLevel.status).toBe(403);
      expect((await server.call('logs/getRetention', { method: 'GET', token: memberToken })).status).toBe(403);
    });
  });
});
