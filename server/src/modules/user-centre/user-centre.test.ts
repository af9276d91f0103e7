import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, encryptedPassword, issueCode, issueToken, PASSWORD, unique } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

/** A 1x1 PNG. */
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe.each(databases)('user centre on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses every call without a token (401) and for an account without role (403)', async () => {
    const roleless = await createUser(server, { roles: [] });
    const token = await issueToken(server, roleless);
    for (const call of ['users/getUserInfo', 'user/editUserInfo', 'users/updateUserCenter', 'user/getLastSignInRecord', 'user/getDeleteImpact', 'user/deleteUser', 'user/modifyPassword']) {
      expect((await server.call(call, { body: {} })).status, call).toBe(401);
      const r = await server.call(call, { body: {}, token });
      expect(r.status, call).toBe(403);
      expect(r.body.code, call).toBe(ErrorCode.mustHaveRole);
    }
  });

  it('reads and edits the profile, with the avatar in the user storage', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const info = await server.call('users/getUserInfo', { token });
    expect(info.body.data).toMatchObject({ userId: user.id, username: user.username, email: user.email, isStudent: false, studentUntil: null, settings: { language: null, theme: null, emailNotifications: false } });
    const edited = await server.call('user/editUserInfo', { token, body: { nickname: 'Ada.L', organisation: 'Lab', avatar: PNG, settings: { language: 'en-US', theme: 'dark', emailNotifications: true } } });
    expect(edited.body.code).toBe(0);
    expect(edited.body.data).toMatchObject({ nickname: 'Ada.L', organisation: 'Lab', settings: { language: 'en-US', theme: 'dark' } });
    expect(edited.body.data.avatarUrl).toMatch(/^\/api\/file\/download\/[0-9a-f]{32}$/);
    const picture = await server.fetch(edited.body.data.avatarUrl, { headers: { Authorization: token } });
    expect(picture.status).toBe(200);
    expect(Buffer.from(await picture.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG');
    const files = await server.app.db.knex('storage_files').where({ user_id: user.id }).whereNull('deleted_at');
    expect(files).toHaveLength(1);
    // A new picture replaces the file; null removes it.
    await server.call('user/editUserInfo', { token, body: { avatar: PNG } });
    expect(await server.app.db.knex('storage_files').where({ user_id: user.id }).whereNull('deleted_at')).toHaveLength(1);
    const removed = await server.call('user/editUserInfo', { token, body: { avatar: null } });
    expect(removed.body.data.avatarUrl).toBeNull();
    expect(await server.app.db.knex('storage_files').where({ user_id: user.id }).whereNull('deleted_at')).toHaveLength(0);

    const bad = await server.call('user/editUserInfo', { token, body: { nickname: 'bad name!', avatar: 'data:image/png;base64,AAAA', unknown: 1 } });
    expect(bad.status).toBe(400);
    const fake = await server.call('user/editUserInfo', { token, body: { avatar: 'data:image/png;base64,' + Buffer.from('not a png').toString('base64') } });
    expect(fake.status).toBe(400);
    expect(fake.body.errors).toHaveProperty('avatar');
  });

  it('changes the e-mail only with a code sent to the new address for this account', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const email = `new_${unique()}@example.com`;
    const foreign = await issueCode(server, { channel: 'email', recipient: email, purpose: 'changeContact', userId: 'x'.repeat(32) });
    expect((await server.call('users/updateUserCenter', { token, body: { kind: 'email', email, code: foreign } })).body.code).toBe(ErrorCode.verifyCodeMismatch);
    const code = await issueCode(server, { channel: 'email', recipient: email, purpose: 'changeContact', userId: user.id });
    const ok = await server.call('users/updateUserCenter', { token, body: { kind: 'email', email, code } });
    expect(ok.body).toMatchObject({ code: 0, data: { email } });
    const other = await createUser(server);
    const taken = await issueCode(server, { channel: 'email', recipient: other.email, purpose: 'changeContact', userId: user.id });
    expect((await server.call('users/updateUserCenter', { token, body: { kind: 'email', email: other.email, code: taken } })).body.code).toBe(ErrorCode.emailRegistered);
    const mobile = `135${String(Date.now()).slice(-8)}`;
    const sms = await issueCode(server, { channel: 'sms', recipient: mobile, purpose: 'changeContact', userId: user.id });
    expect((await server.call('users/updateUserCenter', { token, body: { kind: 'mobile', mobile, code: sms } })).body.data.mobile).toBe(mobile);
    expect((await server.call('users/updateUserCenter', { token, body: { kind: 'phone', code: '1' } })).status).toBe(400);
  });

  it('certifies a student by a campus e-mail code, valid for a year', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const campusEmail = `s_${unique()}@pku.edu.cn`;
    const notCampus = await server.call('users/updateUserCenter', { token, body: { kind: 'student', university: 'PKU', major: 'CS', campusEmail: 'a@example.com', code: 'ABC123' } });
    expect(notCampus.status).toBe(400);
    expect(notCampus.body.errors).toHaveProperty('campusEmail');
    const code = await issueCode(server, { channel: 'email', recipient: campusEmail, purpose: 'student', userId: user.id });
    const ok = await server.call('users/updateUserCenter', { token, body: { kind: 'student', university: 'PKU', major: 'CS', campusEmail, code } });
    expect(ok.body.data).toMatchObject({ isStudent: true, campusEmail, university: 'PKU' });
    const days = (new Date(ok.body.data.studentUntil).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    // The signed-in user's flags carry it too (spec platform §3 isStudent).
    expect((await server.call('user/getUser', { token })).body.data).toMatchObject({ isStudent: true, studentUntil: ok.body.data.studentUntil });
    // Expired certification: no longer a student.
    await server.app.db.knex('users').where('id', user.id).update({ student_until: new Date(Date.now() - 1000) });
    expect((await server.call('users/getUserInfo', { token })).body.data.isStudent).toBe(false);
    expect((await server.call('user/getUser', { token })).body.data.isStudent).toBe(false);
  });

  it('changes the password with the old one; wrong or same passwords are refused; other sessions end', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const other = await issueToken(server, user);
    const call = async (oldPw: string, newPw: string) =>
      server.call('user/modifyPassword', { token, body: { oriPassword: await encryptedPassword(server, oldPw), password: await encryptedPassword(server, newPw) } });
    expect((await call('Wrong1234', 'NewSecret456')).body.code).toBe(ErrorCode.originalPasswordWrong);
    expect((await call(PASSWORD, PASSWORD)).body.code).toBe(ErrorCode.newPasswordSameAsOld);
    expect((await call(PASSWORD, 'short')).status).toBe(400);
    expect((await server.call('user/modifyPassword', { token, body: { password: 'x' } })).status).toBe(400);
    expect((await call(PASSWORD, 'NewSecret456')).body.code).toBe(0);
    expect((await server.call('user/checkToken', { token })).status).toBe(200);
    expect((await server.call('user/checkToken', { token: other })).status).toBe(401);
  });

  it('lists the latest sign-ins with address and agent', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 2; i++) {
      const r = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, PASSWORD) }, headers: { 'User-Agent': `agent-${i}` } });
      expect(r.body.code).toBe(0);
    }
    const token = (await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, PASSWORD) }, headers: { 'User-Agent': 'agent-now' } })).body.data.accessToken;
    const records = await server.call('user/getLastSignInRecord', { token, body: { limit: 2 } });
    expect(records.body.data).toHaveLength(2);
    expect(records.body.data[0]).toMatchObject({ agent: 'agent-now', current: true, active: true });
    expect(records.body.data[0].address).toMatch(/127\.0\.0\.1/);
    expect((await server.call('user/getLastSignInRecord', { token, body: { limit: 500 } })).status).toBe(400);
  });

  it('deletes the account after the typed username, refused while a training runs', async () => {
    const user = await createUser(server);
    const token = await issueToken(server, user);
    const project = await server.call('project/createProject', { token, body: { name: `p${unique()}`.slice(0, 20), colour: 'blue' } });
    expect(project.body.code).toBe(0);
    expect((await server.call('user/getDeleteImpact', { token })).body.data).toMatchObject({ projects: 1, runningTrainings: 0, runningServices: 0 });
    expect((await server.call('user/deleteUser', { token, body: { confirm: 'someone else' } })).body.errors).toHaveProperty('confirm');
    expect((await server.call('user/deleteUser', { token, body: {} })).status).toBe(400);
    // a dataset of theirs (a project-less upload turned into a table)
    const bytes = new TextEncoder().encode('a,b\n1,2\n3,4\n');
    const init = await server.call('file/uploadpartinit', { token, body: { name: 'mine.csv', size: bytes.length, purpose: 'dataset' } });
    const uploadId = init.body.data.uploadId as string;
    const put = await server.fetch(`/api/file/uploadOneFile?uploadId=${uploadId}&partNumber=1`, { method: 'PUT', headers: { Authorization: token, 'Content-Type': 'application/octet-stream' }, body: bytes as unknown as BodyInit });
    expect(put.status).toBe(200);
    const fileId = (await server.call('file/uploadPartComplete', { token, body: { uploadId } })).body.data.fileId as string;
    expect((await server.call('table/create', { token, body: { fileId, name: 'mine', type: 'business' } })).body.code).toBe(0);
    expect(await server.app.db.knex('datasets').where('user_id', user.id)).toHaveLength(1);
    const now = new Date();
    await server.app.db.knex('jobs').insert({ id: 'j'.repeat(32), kind: 'test', name: 'running', state: 'processing', user_id: user.id, tenant_id: user.tenantId, payload: '{}', created_at: now, updated_at: now });
    const busy = await server.call('user/deleteUser', { token, body: { confirm: user.username } });
    expect(busy.body.code).toBe(ErrorCode.accountBusy);
    await server.app.db.knex('jobs').where('id', 'j'.repeat(32)).update({ state: 'failure' });
    const done = await server.call('user/deleteUser', { token, body: { confirm: user.username } });
    expect(done.body).toMatchObject({ code: 0, data: { userId: user.id, deletedProjects: 1 } });
    expect((await server.call('user/checkToken', { token })).status).toBe(401);
    const row = await server.app.db.knex('users').where('id', user.id).first();
    expect(row).toMatchObject({ email: null, status: 'disabled', username: `deleted_${user.id}` });
    expect(await server.app.db.knex('projects').where('owner_id', user.id).whereNull('deleted_at')).toHaveLength(0);
    // no dataset row is left pointing at the removed files, and the user's space is free again
    expect(await server.app.db.knex('datasets').where('user_id', user.id)).toHaveLength(0);
    const quota = await server.app.db.knex('storage_quotas').where({ scope: 'user', owner_id: user.id }).first();
    expect(Number(quota?.used_bytes ?? 0)).toBe(0);
    const again = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, PASSWORD) } });
    expect(again.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
  });
});
