import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, issueToken, type TestUser } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { CONTACT_MAX_PER_WINDOW } from './service';

describe.each(databases)('support on %s', (kind) => {
  let server: TestServer;
  let user: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let userToken: string;
  let otherToken: string;
  let adminToken: string;
  beforeAll(async () => {
    server = await startTestServer(kind);
    user = await createUser(server);
    other = await createUser(server);
    admin = await createUser(server, { roles: ['admin'] });
    userToken = await issueToken(server, user);
    otherToken = await issueToken(server, other);
    adminToken = await issueToken(server, admin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const ticket = { type: 'bug', email: 'me@example.com', description: 'The chart is empty after training' };
  const call = (name: string, token: string | undefined, body: unknown) => server.call(name, { token, body });

  it('a user files a ticket, an administrator answers it, the user reads the answer and gets a message', async () => {
    const created = await call('workOrder/createFeedBackWorkOrder', userToken, ticket);
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ type: 'bug', email: 'me@example.com', mobile: null, status: 'submitted', reply: null, repliedAt: null, username: user.username });
    const id = created.body.data.id as string;

    const mine = await call('workOrder/getFeedBackWorkOrderList', userToken, {});
    expect(mine.body.data.rows.map((r: { id: string }) => r.id)).toEqual([id]);
    expect((await call('workOrder/getFeedBackWorkOrderList', otherToken, {})).body.data.total).toBe(0);
    const all = await call('workOrder/getFeedBackWorkOrderList', adminToken, { scope: 'all', status: 'submitted' });
    expect(all.body.data.rows.map((r: { id: string }) => r.id)).toContain(id);

    const answered = await call('workOrder/replyFeedBackWorkOrder', adminToken, { id, reply: 'Fixed in 1.2.1' });
    expect(answered.body.data).toMatchObject({ id, status: 'replied', reply: 'Fixed in 1.2.1' });
    expect(answered.body.data.repliedAt).toMatch(/^\d{4}-/);
    const again = await call('workOrder/replyFeedBackWorkOrder', adminToken, { id, reply: 'twice' });
    expect(again.body.code).toBe(ErrorCode.workOrderAlreadyReplied);

    const followed = await call('workOrder/getFeedBackWorkOrderList', userToken, { status: 'replied' });
    expect(followed.body.data.rows[0]).toMatchObject({ id, reply: 'Fixed in 1.2.1' });
    const messages = await call('message/getMessageList', userToken, {});
    expect(messages.body.data.rows).toHaveLength(1);
    expect(messages.body.data.rows[0]).toMatchObject({ kind: 'ticketAnswered', params: { workOrderId: id, type: 'bug' } });

    // Only its author deletes a ticket; then it is gone from every list.
    expect((await call('workOrder/deleteFeedBackWorkOrder', otherToken, { id })).body.code).toBe(ErrorCode.workOrderNotFound);
    expect((await call('workOrder/deleteFeedBackWorkOrder', userToken, { id })).body).toMatchObject({ code: 0, data: { id } });
    expect((await call('workOrder/getFeedBackWorkOrderList', userToken, {})).body.data.total).toBe(0);
    expect((await call('workOrder/deleteFeedBackWorkOrder', userToken, { id })).status).toBe(404);
  });

  it('refuses bad input', async () => {
    const noContact = await call('workOrder/createFeedBackWorkOrder', userToken, { type: 'bug', description: 'x' });
    expect(noContact.body.code).toBe(ErrorCode.contactMethodRequired);
    for (const body of [{ ...ticket, type: 'nope' }, { ...ticket, description: '' }, { ...ticket, email: 'not-mail' }, { ...ticket, mobile: '123' }, { ...ticket, extra: 1 }, { ...ticket, description: 'x'.repeat(2001) }]) {
      const r = await call('workOrder/createFeedBackWorkOrder', userToken, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(r.body.code).toBe(ErrorCode.paramInvalid);
    }
    expect((await call('workOrder/deleteFeedBackWorkOrder', userToken, { id: 'x' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('workOrder/replyFeedBackWorkOrder', adminToken, { id: 'a'.repeat(32), reply: '' })).body.code).toBe(ErrorCode.paramInvalid);
    expect((await call('workOrder/replyFeedBackWorkOrder', adminToken, { id: 'a'.repeat(32), reply: 'ok' })).body.code).toBe(ErrorCode.workOrderNotFound);
  });

  it('needs a token (401) and answers no permission (403) to ordinary users on administrator calls', async () => {
    for (const name of ['workOrder/createFeedBackWorkOrder', 'workOrder/deleteFeedBackWorkOrder', 'workOrder/getFeedBackWorkOrderList', 'workOrder/replyFeedBackWorkOrder']) {
      expect((await call(name, undefined, {})).status, name).toBe(401);
    }
    const filed = await call('workOrder/createFeedBackWorkOrder', otherToken, { ...ticket, mobile: '13800000000', email: '' });
    expect(filed.body.data).toMatchObject({ email: null, mobile: '13800000000' });
    const denied = await call('workOrder/replyFeedBackWorkOrder', userToken, { id: filed.body.data.id, reply: 'I answer myself' });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(ErrorCode.userNotPermission);
    expect((await call('workOrder/getFeedBackWorkOrderList', userToken, { scope: 'all' })).status).toBe(403);
  });

  it('keeps public contact forms, with one contact method at least and a limit per address', async () => {
    const form = { name: 'Ada', company: 'ACME', email: 'ada@example.com', content: 'We want a demo' };
    const sent = await call('workOrder/createContact', undefined, form);
    expect(sent.body.code).toBe(0);
    const row = await server.app.db.knex('contact_requests').where({ id: sent.body.data.id }).first();
    expect(row).toMatchObject({ name: 'Ada', company: 'ACME', email: 'ada@example.com', mobile: null, content: 'We want a demo' });
    expect((await call('workOrder/createContact', undefined, { name: 'Ada', content: 'hi' })).body.code).toBe(ErrorCode.contactMethodRequired);
    expect((await call('workOrder/createContact', undefined, { ...form, content: '' })).status).toBe(400);
    for (let i = 1; i < CONTACT_MAX_PER_WINDOW; i++) expect((await call('workOrder/createContact', undefined, form)).body.code).toBe(0);
    const limited = await call('workOrder/createContact', undefined, form);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe(ErrorCode.tooManyRequests);
  });
});
