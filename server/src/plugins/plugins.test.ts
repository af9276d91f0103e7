import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { defineServerPlugin } from '@decisio/sdk-plugin/server';
import { createUser, issueToken } from '../test/factories';
import { samplePlugin } from '../test/sample-plugin';
import { databases, startTestServer, type TestServer } from '../test/server';

describe('defineServerPlugin', () => {
  it('checks ids, migration names and order, and duplicates', () => {
    expect(() => defineServerPlugin({ id: 'Bad Id' })).toThrow(/lower-case/);
    expect(() => defineServerPlugin({ id: 'a.b', migrations: [{ name: 'create_x', up: async () => undefined }] })).toThrow(/YYYYMMDDHHMMSS/);
    expect(() =>
      defineServerPlugin({
        id: 'a.b',
        migrations: [
          { name: '20260102000000_create_b', up: async () => undefined },
          { name: '20260101000000_create_a', up: async () => undefined },
        ],
      }),
    ).toThrow(/ascending/);
    expect(() =>
      defineServerPlugin({ id: 'a.b', jobKinds: [{ kind: 'k', run: async () => 1 }, { kind: 'k', run: async () => 2 }] }),
    ).toThrow(/duplicate job kind/);
    const p = defineServerPlugin({ id: 'a.b' });
    expect(Object.isFrozen(p)).toBe(true);
    expect(p).toMatchObject({ id: 'a.b', routes: null, migrations: [], seeds: [], jobKinds: [] });
  });
});

describe.each(databases)('server plugins on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { plugins: [samplePlugin] });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('appends the plugin migrations and seeds to the history, named by plugin id', async () => {
    const names = (await server.app.db.knex('knex_migrations').orderBy('id').pluck('name')) as string[];
    expect(names.slice(-2)).toEqual(['acme.notes/20261201000000_create_acme_notes', 'acme.notes/seed_welcome']);
    expect(names[0]).toBe('20261123100000_create_tenancy');
    expect(await server.app.migrate()).toEqual([]);
    expect(server.app.jobKinds.get('acme.notes.count')).toBeDefined();
  });

  it('serves the plugin routes under /api/ with the host guards', async () => {
    const admin = await createUser(server, { roles: ['admin'] });
    const token = await issueToken(server, admin);
    const created = await server.call('acmeNotes/create', { token, body: { text: 'hello' } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ code: 0, data: { text: 'hello' } });
    const list = await server.call('acmeNotes/list', { method: 'GET', token });
    expect(list.body.data).toEqual(['hello', 'welcome']);

    expect((await server.call('acmeNotes/create', { body: { text: 'x' } })).status).toBe(401);
    const invalid = await server.call('acmeNotes/create', { token, body: { text: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors).toHaveProperty('text');
    const member = await createUser(server);
    const denied = await server.call('acmeNotes/list', { method: 'GET', token: await issueToken(server, member) });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);
  });

  it('refuses a plugin route that clashes with a registered one', async () => {
    const clash = defineServerPlugin({ id: 'acme.clash', routes: (router) => router.post('/user/getUser', () => 1) });
    await expect(startTestServer(kind, { plugins: [clash], migrate: false })).rejects.toThrow(/already registered/);
  });

  it('rolls the transaction back when the handler fails', async () => {
    const admin = await createUser(server, { roles: ['admin'] });
    const token = await issueToken(server, admin);
    const reply = await server.call('acmeNotes/create', { token, body: { text: 'rollback' } });
    expect(reply.status).toBe(500);
    expect(reply.body.code).toBe(ErrorCode.failure);
    expect(await server.app.db.knex('acme_notes').where('text', 'rollback')).toHaveLength(0);
  });
});
