/**
 * The contact form's entries for administrators: `contact/getContactList` (`contacts:read`) and
 * `contact/handleContact` (`contacts:write`), on SQLite and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { newId } from '../../db/ids';
import { createUser, issueToken, unique } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('contact-form entries on %s', (kind) => {
  let server: TestServer;
  let admin: { username: string };
  let adminToken: string;
  let userToken: string;
  let tenantAdminToken: string;
  let readerToken: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    const a = await createUser(server, { roles: ['admin'] });
    admin = a;
    adminToken = await issueToken(server, a);
    userToken = await issueToken(server, await createUser(server));
    tenantAdminToken = await issueToken(server, await createUser(server, { roles: ['tenant-admin'] }));
    // A role that may read the entries but not mark them.
    const knex = server.app.db.knex;
    const roleId = newId();
    const now = new Date();
    await knex('roles').insert({ id: roleId, tenant_id: null, code: `reader_${unique()}`, name: 'Reader', is_system: false, permissions: JSON.stringify(['contacts:read']), sort: 5, created_at: now, updated_at: now });
    const reader = await createUser(server, { roles: [] });
    await knex('user_roles').insert({ user_id: reader.id, role_id: roleId });
    readerToken = await issueToken(server, reader);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });

  it('lists the public form\'s entries newest first, searches and filters them, and marks one handled once', async () => {
    const tag = unique();
    const sent: string[] = [];
    for (const [i, form] of [
      { name: 'Ann Li', company: 'Grid Co', email: `ann_${tag}@example.com`, content: `Pump control pilot ${tag}` },
      { name: 'Bo Wang', mobile: '13900001111', content: `Price of the Pro SDK ${tag}` },
      { name: '张三', email: `zs_${tag}@example.com`, content: `50%_off ${tag}` },
    ].entries()) {
      const r = await call('workOrder/createContact', undefined, form);
      expect(r.body.code, String(i)).toBe(0);
      sent.push(r.body.data.id);
      // Distinct sending times, so newest first is well defined.
      await server.app.db.knex('contact_requests').where({ id: r.body.data.id }).update({ created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)) });
    }
    const listed = await call('contact/getContactList', adminToken, { keyword: tag, pageSize: 10 });
    expect(listed.status).toBe(200);
    expect(listed.body.data.total).toBe(3);
    expect(listed.body.data.rows.map((r: { id: string }) => r.id)).toEqual([...sent].reverse());
    expect(listed.body.data.rows[2]).toMatchObject({ name: 'Ann Li', company: 'Grid Co', email: `ann_${tag}@example.com`, mobile: null, handledAt: null, handledBy: null, handledNote: null });
    // The keyword is a literal: % and _ match themselves; case does not matter.
    expect((await call('contact/getContactList', adminToken, { keyword: `50%_OFF ${tag}` })).body.data.rows.map((r: { id: string }) => r.id)).toEqual([sent[2]]);
    expect((await call('contact/getContactList', adminToken, { keyword: `5_%off ${tag}` })).body.data.total).toBe(0);
    expect((await call('contact/getContactList', adminToken, { keyword: 'grid co' })).body.data.rows.map((r: { id: string }) => r.id)).toContain(sent[0]);
    // Paging.
    const page2 = await call('contact/getContactList', adminToken, { keyword: tag, page: 2, pageSize: 2 });
    expect(page2.body.data).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(page2.body.data.rows.map((r: { id: string }) => r.id)).toEqual([sent[0]]);

    const handled = await call('contact/handleContact', adminToken, { id: sent[1], note: 'Sent the price list' });
    expect(handled.status).toBe(200);
    expect(handled.body.data).toMatchObject({ id: sent[1], handledBy: admin.username, handledNote: 'Sent the price list' });
    expect(handled.body.data.handledAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await call('contact/handleContact', adminToken, { id: sent[1] })).body.code).toBe(ErrorCode.contactRequestHandled);
    const open = await call('contact/getContactList', adminToken, { keyword: tag, handled: false });
    expect(open.body.data.rows.map((r: { id: string }) => r.id)).toEqual([sent[2], sent[0]]);
    const done = await call('contact/getContactList', adminToken, { keyword: tag, handled: true });
    expect(done.body.data.rows.map((r: { id: string }) => r.id)).toEqual([sent[1]]);
    // A reader with contacts:read only sees them.
    expect((await call('contact/getContactList', readerToken, { keyword: tag })).body.data.total).toBe(3);
    const readerHandle = await call('contact/handleContact', readerToken, { id: sent[0] });
    expect([readerHandle.status, readerHandle.body.code]).toEqual([403, ErrorCode.userNotPermission]);
  });

  it('refuses bad input, calls without a token, and users without the permission', async () => {
    for (const body of [{ page: 0 }, { pageSize: 101 }, { handled: 'yes' }, { keyword: 'x'.repeat(101) }, { more: 1 }]) {
      const r = await call('contact/getContactList', adminToken, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(ErrorCode.paramInvalid);
    }
    for (const body of [{}, { id: 'x' }, { id: 'a'.repeat(32), note: 'n'.repeat(501) }, { id: 'a'.repeat(32), extra: true }]) {
      expect((await call('contact/handleContact', adminToken, body)).status, JSON.stringify(body)).toBe(400);
    }
    const missing = await call('contact/handleContact', adminToken, { id: 'a'.repeat(32) });
    expect([missing.status, missing.body.code]).toEqual([404, ErrorCode.contactRequestNotFound]);

    for (const name of ['contact/getContactList', 'contact/handleContact']) {
      expect((await call(name, undefined, {})).status, name).toBe(401);
      // An ordinary user and a tenant administrator hold no contacts permission.
      for (const token of [userToken, tenantAdminToken]) {
        const r = await call(name, token, name.endsWith('List') ? {} : { id: 'a'.repeat(32) });
        expect([r.status, r.body.code], name).toEqual([403, ErrorCode.userNotPermission]);
      }
    }
  });
});
