import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, MODELLING_JOB_KINDS } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { systemClock } from '../../clock';
import { MessagesService } from './service';

describe.each(databases)('messages on %s', (kind) => {
  let server: TestServer;
  let service: MessagesService;
  let alice: TestUser;
  let bob: TestUser;
  let aliceToken: string;
  let bobToken: string;
  beforeAll(async () => {
    server = await startTestServer(kind, { jobs: { threads: false } });
    service = new MessagesService(server.app.db, systemClock);
    alice = await createUser(server);
    bob = await createUser(server);
    aliceToken = await issueToken(server, alice);
    bobToken = await issueToken(server, bob);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const list = (token: string, body: Record<string, unknown> = {}) => server.call('message/getMessageList', { token, body });
  const unread = async (token: string) => (await server.call('message/getUnreadCount', { token, body: {} })).body.data.unread as number;

  it('lists, counts, reads and deletes only the caller\'s own messages', async () => {
    const first = await service.notify(alice.id, 'ticketAnswered', { workOrderId: 'a'.repeat(32), type: 'bug', excerpt: 'x' });
    const second = await service.notify(alice.id, 'licenceExpiring', { licenceId: 'b'.repeat(32), days: 3 });
    await service.notify(bob.id, 'ticketAnswered', { workOrderId: 'c'.repeat(32) });
    expect(first).toMatch(/^[0-9a-f]{32}$/);

    const page = await list(aliceToken);
    expect(page.status).toBe(200);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.rows.map((m: { kind: string }) => m.kind).sort()).toEqual(['licenceExpiring', 'ticketAnswered']);
    expect(page.body.data.rows.find((m: { id: string }) => m.id === second).params).toEqual({ licenceId: 'b'.repeat(32), days: 3 });
    expect(await unread(aliceToken)).toBe(2);

    // Bob cannot read or delete Alice's message: it is not found for him.
    const foreign = await server.call('message/readMessage', { token: bobToken, body: { ids: [first] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe(ErrorCode.messageNotFound);
    expect((await server.call('message/deleteMessage', { token: bobToken, body: { ids: [first] } })).body.code).toBe(ErrorCode.messageNotFound);
    expect(await unread(aliceToken)).toBe(2);

    const read = await server.call('message/readMessage', { token: aliceToken, body: { ids: [first] } });
    expect(read.body).toMatchObject({ code: 0, data: { changed: 1 } });
    expect(await unread(aliceToken)).toBe(1);
    const onlyUnread = await list(aliceToken, { unread: true });
    expect(onlyUnread.body.data.rows.map((m: { id: string }) => m.id)).toEqual([second]);
    expect((await list(aliceToken)).body.data.rows.find((m: { id: string }) => m.id === first).readAt).toMatch(/^\d{4}-/);

    expect((await server.call('message/readMessage', { token: aliceToken, body: { all: true } })).body.data.changed).toBe(1);
    expect(await unread(aliceToken)).toBe(0);
    expect((await server.call('message/deleteMessage', { token: aliceToken, body: { ids: [first] } })).body.data.deleted).toBe(1);
    expect((await list(aliceToken)).body.data.total).toBe(1);
    expect((await server.call('message/deleteMessage', { token: aliceToken, body: { all: true } })).body.data.deleted).toBe(1);
    expect((await list(aliceToken)).body.data.total).toBe(0);
    expect(await unread(bobToken)).toBe(1);
  });

  it('writes a message once per dedupe key', async () => {
    const carol = await createUser(server);
    expect(await service.notify(carol.id, 'licenceExpired', { licenceId: 'd'.repeat(32) }, { dedupeKey: 'k1' })).not.toBeNull();
    expect(await service.notify(carol.id, 'licenceExpired', { licenceId: 'd'.repeat(32) }, { dedupeKey: 'k1' })).toBeNull();
    expect(await service.notify('0'.repeat(32), 'licenceExpired', {})).toBeNull();
    expect(await unread(await issueToken(server, carol))).toBe(1);
  });

  it('refuses bad input (400) and calls without a token (401)', async () => {
    for (const body of [{ ids: [] }, { ids: ['nope'] }, {}, { ids: ['a'.repeat(32)], all: true }, { all: false }]) {
      const r = await server.call('message/readMessage', { token: aliceToken, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(ErrorCode.paramInvalid);
    }
    expect((await list(aliceToken, { pageSize: 0 })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await server.call('message/getUnreadCount', { token: aliceToken, body: { x: 1 } })).status).toBe(400);
    for (const name of ['message/getMessageList', 'message/getUnreadCount', 'message/readMessage', 'message/deleteMessage']) {
      const r = await server.call(name, { body: { all: true } });
      expect(r.status, name).toBe(401);
    }
  });

  it('tells the user when a training fails (a real job through the queue)', async () => {
    const dave = await createUser(server);
    const daveToken = await issueToken(server, dave);
    await server.app.startJobs();
    // A policy training whose record does not exist fails in its handler.
    const job = await server.app.jobs.enqueue(MODELLING_JOB_KINDS.policy, { id: 'f'.repeat(32) }, { tenantId: dave.tenantId, userId: dave.id, name: 'my policy' });
    let rows: { kind: string; params: Record<string, unknown> }[] = [];
    for (let i = 0; i < 100 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      rows = (await list(daveToken)).body.data.rows;
    }
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'trainingFailed', params: { jobId: job.id, name: 'my policy', trainingKind: 'policy', state: 'failure' } });
    // A repeated final event writes nothing more.
    await service.onJobFinal(job.id, 'failure');
    expect((await list(daveToken)).body.data.total).toBe(1);
  });

  it('tells the user when a training ends, and says nothing for jobs that are not trainings', async () => {
    const erin = await createUser(server);
    const now = new Date();
    const knex = server.app.db.knex;
    const base = { tenant_id: erin.tenantId, user_id: erin.id, payload: '{}', created_at: now, updated_at: now };
    await knex('jobs').insert({ ...base, id: '1'.repeat(32), kind: MODELLING_JOB_KINDS.environment, name: 'env', state: 'successful' });
    await knex('jobs').insert({ ...base, id: '2'.repeat(32), kind: MODELLING_JOB_KINDS.scheme, name: 'scheme', state: 'successful' });
    await knex('jobs').insert({ ...base, id: '3'.repeat(32), kind: 'data.import', name: 'import', state: 'failure' });
    await service.onJobFinal('1'.repeat(32), 'successful');
    await service.onJobFinal('2'.repeat(32), 'successful');
    await service.onJobFinal('3'.repeat(32), 'failure');
    const rows = (await list(await issueToken(server, erin))).body.data.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'trainingEnded', params: { trainingKind: 'environment', name: 'env', error: null } });
  });

  it('tells a collaborator that a project was shared with them', async () => {
    const owner = await createUser(server);
    const mate = await createUser(server);
    const ownerToken = await issueToken(server, owner);
    const created = await server.call('project/createProject', { token: ownerToken, body: { name: 'Shared one', colour: 'gold' } });
    expect(created.body.code).toBe(0);
    const projectId = created.body.data.projectId as string;
    const granted = await server.call('project/createProjectPermissionsList', {
      token: ownerToken,
      body: { projectId, permissions: [{ subjectType: 'user', subjectId: mate.id, permission: 'edit' }] },
    });
    expect(granted.body.code).toBe(0);
    const rows = (await list(await issueToken(server, mate))).body.data.rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'projectShared', params: { projectId, projectName: 'Shared one', by: owner.username, permission: 'edit' } });
    expect((await list(ownerToken)).body.data.total).toBe(0);
  });
});
