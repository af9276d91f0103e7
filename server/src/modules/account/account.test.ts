import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, encryptPassword } from '@decisio/domain';
import { countRows, createTenant, createUser, encryptedPassword, issueToken, PASSWORD, issueCode, signIn, signUpBody, solvedCaptcha, unique } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';

describe.each(databases)('account calls on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('index/getPublicKey', () => {
    it('answers an RSA-OAEP-256 SPKI key that survives a restart', async () => {
      const first = await server.call('index/getPublicKey');
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ code: 0, data: { algorithm: 'RSA-OAEP-256' } });
      expect(first.body.data.keyId).toMatch(/^[0-9a-f]{32}$/);
      expect(first.body.data.spki.length).toBeGreaterThan(300);

      const again = await startTestServer(kind, { databaseUrl: server.databaseUrl, migrate: false });
      try {
        const second = await again.call('index/getPublicKey');
        expect(second.body.data).toMatchObject({ keyId: first.body.data.keyId, spki: first.body.data.spki });
        // Each answer carries its own one-time nonce, valid for two minutes.
        expect(second.body.data.nonce).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(second.body.data.nonce).not.toBe(first.body.data.nonce);
        const validMs = new Date(second.body.data.nonceExpiresAt).getTime() - Date.now();
        expect(validMs).toBeGreaterThan(100_000);
        expect(validMs).toBeLessThanOrEqual(120_000);
      } finally {
        await again.stop();
      }
    });

    it('rejects a payload with 400', async () => {
      const reply = await server.call('index/getPublicKey', { body: { unexpected: 1 } });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(ErrorCode.paramInvalid);
    });
  });

  describe('index/signUp', () => {
    it('makes the first account the system administrator and later ones ordinary users', async () => {
      const first = await server.call('index/signUp', { body: await signUpBody(server) });
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ code: 0, data: { isSystemRole: true } });
      expect(first.body.data.userId).toMatch(/^[0-9a-f]{32}$/);

      const second = await server.call('index/signUp', {
        body: await signUpBody(server, { mobile: '13800000001', occupation: 'student', nickname: 'Ada' }),
      });
      expect(second.body).toMatchObject({ code: 0, data: { isSystemRole: false } });

      const roles = await server.app.db
        .knex('user_roles')
        .join('roles', 'roles.id', 'user_roles.role_id')
        .whereIn('user_roles.user_id', [first.body.data.userId, second.body.data.userId])
        .select('user_roles.user_id', 'roles.code');
      expect(roles).toEqual(
        expect.arrayContaining([
          { user_id: first.body.data.userId, code: 'admin' },
          { user_id: second.body.data.userId, code: 'user' },
        ]),
      );
      const row = await server.app.db.knex('users').where('id', second.body.data.userId).first();
      expect(row.password_hash).toMatch(/^\$argon2id\$/);
      // Occupation "student" typed at sign-up is no certificate (student trial rules).
      expect(Boolean(row.is_student)).toBe(false);
      expect(row.student_until).toBeNull();
    });

    it('answers 400 with translated field errors for bad input, and writes nothing', async () => {
      const before = await countRows(server, 'users');
      const reply = await server.call('index/signUp', {
        body: { username: 'ab', email: 'not-an-email', occupation: 'astronaut', password: 'x', agreement: false },
        headers: { 'Accept-Language': 'en-US' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(ErrorCode.paramInvalid);
      expect(reply.body.errors).toMatchObject({
        username: 'Username must be 5-20 characters',
        email: 'Enter a valid e-mail address',
        agreement: 'Please read and accept the user agreement and privacy policy',
      });
      expect(Object.keys(reply.body.errors!)).toEqual(expect.arrayContaining(['occupation', 'password']));
      expect(await countRows(server, 'users')).toBe(before);
    });

    it('checks the decrypted password against the password rule', async () => {
      const before = await countRows(server, 'users');
      const reply = await server.call('index/signUp', { body: await signUpBody(server, { plainPassword: 'alllowercase1' }) });
      expect(reply.status).toBe(400);
      expect(reply.body.errors).toEqual({ password: '密码必须包含大写字母' });
      const garbage = await server.call('index/signUp', { body: await signUpBody(server, { password: 'bm90IGEgY2lwaGVydGV4dA==' }) });
      expect(garbage.status).toBe(400);
      expect(garbage.body.code).toBe(ErrorCode.paramInvalid);
      expect(await countRows(server, 'users')).toBe(before);
    });

    it('refuses a registered username, e-mail or mobile and leaves no rows behind', async () => {
      const existing = await createUser(server, { mobile: '13900000002' });
      const counts = async () => [await countRows(server, 'users'), await countRows(server, 'user_roles')];
      const before = await counts();
      const sameName = await server.call('index/signUp', { body: await signUpBody(server, { username: existing.username.toUpperCase() }) });
      expect(sameName.body.code).toBe(ErrorCode.usernameRegistered);
      expect(sameName.status).toBe(400);
      const sameEmail = await server.call('index/signUp', { body: await signUpBody(server, { email: existing.email.toUpperCase() }) });
      expect(sameEmail.body.code).toBe(ErrorCode.emailRegistered);
      const sameMobile = await server.call('index/signUp', { body: await signUpBody(server, { mobile: '13900000002' }) });
      expect(sameMobile.body.code).toBe(ErrorCode.mobileRegistered);
      expect(await counts()).toEqual(before);
    });
    it('creates one account when the same name signs up concurrently', async () => {
      const before = await countRows(server, 'users');
      const username = `race_${unique()}`;
      const bodies = await Promise.all([0, 1, 2, 3].map((i) => signUpBody(server, { username, email: `race${i}_${unique()}@example.com` })));
      const replies = await Promise.all(bodies.map((body) => server.call('index/signUp', { body })));
      const codes = replies.map((r) => r.body.code).sort();
      expect(codes).toEqual([0, ErrorCode.usernameRegistered, ErrorCode.usernameRegistered, ErrorCode.usernameRegistered]);
      expect(await countRows(server, 'users')).toBe(before + 1);
      expect(await countRows(server, 'user_roles')).toBe(before + 1);
    });

    it('refuses a campus e-mail already used, once an account proved it (a typed one is unproven)', async () => {
      const campusEmail = `stu_${unique()}@pku.edu.cn`;
      const first = await server.call('index/signUp', { body: await signUpBody(server, { occupation: 'student', campusEmail }) });
      expect(first.body.code).toBe(0);
      // Typed at sign-up, not proven by a code: it takes nothing from the address's owner.
      const second = await server.call('index/signUp', { body: await signUpBody(server, { occupation: 'student', campusEmail }) });
      expect(second.body.code).toBe(0);
      // Proven (the user centre's certification sets its end date): taken.
      await server.app.db.knex('users').where('id', first.body.data.userId).update({ student_until: new Date(Date.now() + 86_400_000) });
      const again = await server.call('index/signUp', { body: await signUpBody(server, { occupation: 'student', campusEmail }) });
      expect(again.body.code).toBe(ErrorCode.campusEmailUsed);
    });
  });

  describe('index/signUp verification code', () => {
    it('refuses a missing, wrong or foreign code and writes nothing; accepts an SMS code for the mobile', async () => {
      const before = await countRows(server, 'users');
      const body = await signUpBody(server);
      const missing = await server.call('index/signUp', { body: { ...body, code: undefined } });
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.errors!)).toContain('code');
      const wrong = await server.call('index/signUp', { body: { ...body, code: body.code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA', password: await encryptedPassword(server, PASSWORD) } });
      expect(wrong.body.code).toBe(ErrorCode.verifyCodeMismatch);
      const other = await signUpBody(server);
      const foreign = await server.call('index/signUp', { body: { ...body, code: other.code, password: await encryptedPassword(server, PASSWORD) } });
      expect(foreign.body.code).toBe(ErrorCode.verifyCodeMismatch);
      expect(await countRows(server, 'users')).toBe(before);

      const mobile = `136${String(Date.now()).slice(-8)}`;
      const smsCode = await issueCode(server, { channel: 'sms', recipient: mobile, purpose: 'signUp' });
      const noMobile = await server.call('index/signUp', { body: { ...(await signUpBody(server)), codeChannel: 'sms', code: smsCode } });
      expect(noMobile.status).toBe(400);
      const bySms = await server.call('index/signUp', { body: { ...(await signUpBody(server, { mobile })), codeChannel: 'sms', code: smsCode } });
      expect(bySms.body.code).toBe(0);
    });
  });

  describe('index/signIn', () => {
    it('signs in by username, e-mail or mobile and sets the token cookie', async () => {
      const user = await createUser(server, { mobile: '13700000003' });
      for (const name of [user.username, user.email.toUpperCase(), '13700000003']) {
        const reply = await server.call('index/signIn', { body: { username: name, password: await encryptedPassword(server, PASSWORD) } });
        expect(reply.status).toBe(200);
        expect(reply.body.code).toBe(0);
        expect(reply.body.data.userId).toBe(user.id);
        expect(reply.body.data.accessToken.length).toBeGreaterThanOrEqual(43);
        expect(new Date(reply.body.data.expiresAt).getTime()).toBeGreaterThan(Date.now() + 167 * 3600_000);
        const cookie = reply.headers.get('set-cookie') ?? '';
        expect(cookie).toContain(`token=${reply.body.data.accessToken}`);
        expect(cookie.toLowerCase()).toContain('samesite=lax');
        expect(cookie.toLowerCase()).toContain('path=/');
      }
      const stored = await server.app.db.knex('sessions').where('user_id', user.id);
      expect(stored).toHaveLength(3);
      // Only hashes are stored.
      expect(stored.every((s: { token_hash: string }) => /^[0-9a-f]{64}$/.test(s.token_hash))).toBe(true);
    });

    it('answers wrongLoginNameOrPassword for a wrong password or unknown name', async () => {
      const user = await createUser(server);
      const wrong = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, 'Wrong1234') } });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      const nobody = await server.call('index/signIn', { body: { username: `nobody_${unique()}`, password: await encryptedPassword(server, PASSWORD) } });
      expect(nobody.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
    });

    it('answers 400 for missing fields', async () => {
      const reply = await server.call('index/signIn', { body: { username: '' } });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(ErrorCode.paramInvalid);
      expect(Object.keys(reply.body.errors!).sort()).toEqual(['password', 'username']);
      expect(reply.body.errors!.password).toBe('此项为必填项');
    });

    it('refuses a disabled account (403 userBanned) and an account without a role (403 mustHaveRole)', async () => {
      const banned = await createUser(server, { status: 'disabled' });
      const a = await server.call('index/signIn', { body: { username: banned.username, password: await encryptedPassword(server, PASSWORD) } });
      expect(a.status).toBe(403);
      expect(a.body.code).toBe(ErrorCode.userBanned);
      const roleless = await createUser(server, { roles: [] });
      const b = await server.call('index/signIn', { body: { username: roleless.username, password: await encryptedPassword(server, PASSWORD) } });
      expect(b.status).toBe(403);
      expect(b.body.code).toBe(ErrorCode.mustHaveRole);
    });

    it('refuses an account whose tenant is disabled (403 tenantNotExists)', async () => {
      const tenantId = await createTenant(server, 'disabled');
      const user = await createUser(server, { tenantId });
      const reply = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, PASSWORD) } });
      expect(reply.status).toBe(403);
      expect(reply.body.code).toBe(ErrorCode.tenantNotExists);
    });

    it('locks an account after repeated failures (403 userLocked)', async () => {
      const user = await createUser(server);
      for (let i = 0; i < 5; i++) {
        // From the fourth try on, sign-in also needs a captcha (LOGIN_CAPTCHA_AFTER, default 3).
        const captcha = i >= 3 ? await solvedCaptcha(server) : {};
        const r = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, 'Wrong1234'), ...captcha } });
        expect(r.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      }
      const locked = await server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, PASSWORD) } });
      expect(locked.status).toBe(403);
      expect(locked.body.code).toBe(ErrorCode.userLocked);
    });
  });

  describe('index/signIn captcha per client address', () => {
    // Its own server, so that no other test's failures count for the address; the test server
    // is the trusted proxy, so X-Forwarded-For names the client (default limits otherwise:
    // captcha after 3 failures of an account or 10 of an address, address refused after 30).
    let proxied: TestServer;
    beforeAll(async () => {
      proxied = await startTestServer(kind, { env: { TRUST_PROXY: '127.0.0.1,::1' } });
    });
    afterAll(async () => {
      await proxied?.stop();
    });
    const attempt = async (username: string, password: string, from: string, captcha: object = {}) =>
      proxied.call('index/signIn', { body: { username, password: await encryptedPassword(proxied, password), ...captcha }, headers: { 'X-Forwarded-For': from } });

    it('asks for a captcha from an address that sprayed one password over many accounts, for every name', async () => {
      const attacker = '198.51.100.23';
      const victims = await Promise.all(Array.from({ length: 11 }, () => createUser(proxied)));
      // One try per account: no account comes near its own captcha threshold (3).
      for (const v of victims.slice(0, 10)) expect((await attempt(v.username, 'Spring2026!', attacker)).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      const next = await attempt(victims[10]!.username, 'Spring2026!', attacker);
      expect(next.status).toBe(400);
      expect(next.body.code).toBe(ErrorCode.captchaRequired);
      // Unknown names and the right password of an account need it too from that address.
      expect((await attempt(`nobody_${unique()}`, 'Spring2026!', attacker)).body.code).toBe(ErrorCode.captchaRequired);
      expect((await attempt(victims[10]!.username, PASSWORD, attacker)).body.code).toBe(ErrorCode.captchaRequired);
      expect((await attempt(victims[10]!.username, PASSWORD, attacker, { captchaId: (await solvedCaptcha(proxied)).captchaId, captchaCode: 'ZZZZZ' })).body.code).toBe(ErrorCode.captchaMismatch);
      // Refused for want of a captcha before anything is counted: the account has no failure.
      const row = await proxied.app.db.knex('signin_failures').where('guard_key', `user:${victims[10]!.id}`).first('failures');
      expect(row).toBeUndefined();
      // With a solved captcha the password is checked as usual.
      expect((await attempt(victims[10]!.username, 'Spring2026!', attacker, await solvedCaptcha(proxied))).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      expect((await attempt(victims[10]!.username, PASSWORD, attacker, await solvedCaptcha(proxied))).body.code).toBe(0);
      // Another client address signs in without one.
      expect((await attempt(victims[0]!.username, PASSWORD, '198.51.100.24')).body.code).toBe(0);
    });

    it('does not ask below the threshold, and LOGIN_CAPTCHA_AFTER_ADDRESS=0 never asks for the address', async () => {
      const from = '198.51.100.40';
      const users = await Promise.all(Array.from({ length: 10 }, () => createUser(proxied)));
      for (const u of users.slice(0, 9)) expect((await attempt(u.username, 'Wrong1234', from)).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      // Nine failures: the tenth try from the address is still checked without a captcha.
      expect((await attempt(users[9]!.username, PASSWORD, from)).body.code).toBe(0);

      const off = await startTestServer(kind, { env: { TRUST_PROXY: '127.0.0.1,::1', LOGIN_CAPTCHA_AFTER_ADDRESS: '0' } });
      try {
        const spray = await Promise.all(Array.from({ length: 13 }, () => createUser(off)));
        const call = async (username: string, password: string) =>
          off.call('index/signIn', { body: { username, password: await encryptedPassword(off, password) }, headers: { 'X-Forwarded-For': from } });
        for (const u of spray.slice(0, 12)) expect((await call(u.username, 'Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
        expect((await call(spray[12]!.username, PASSWORD)).body.code).toBe(0);
      } finally {
        await off.stop();
      }
    });
  });

  describe('user/checkToken', () => {
    it('accepts the token raw, as Bearer or from the cookie', async () => {
      const user = await createUser(server);
      const token = await signIn(server, user);
      const variants: Record<string, string>[] = [{ Authorization: token }, { Authorization: `Bearer ${token}` }, { Cookie: `token=${token}` }];
      for (const headers of variants) {
        const reply = await server.call('user/checkToken', { headers });
        expect(reply.status).toBe(200);
        expect(reply.body.data).toMatchObject({ valid: true, userId: user.id });
      }
    });

    it('answers 401 without a token, for an unknown token and for an expired one', async () => {
      const none = await server.call('user/checkToken');
      expect(none.status).toBe(401);
      expect(none.body.code).toBe(ErrorCode.unauthorized);
      const bad = await server.call('user/checkToken', { token: 'not-a-token' });
      expect(bad.status).toBe(401);
      expect(bad.body.code).toBe(ErrorCode.tokenInvalid);
      const user = await createUser(server);
      const expired = await issueToken(server, user, new Date(Date.now() - 1000));
      const old = await server.call('user/checkToken', { token: expired });
      expect(old.status).toBe(401);
      expect(old.body.code).toBe(ErrorCode.tokenExpired);
    });

    it('answers tokenInvalid when the UserId header names someone else', async () => {
      const user = await createUser(server);
      const token = await issueToken(server, user);
      const ok = await server.call('user/checkToken', { token, headers: { UserId: user.id } });
      expect(ok.body.code).toBe(0);
      const other = await server.call('user/checkToken', { token, headers: { UserId: '0'.repeat(32) } });
      expect(other.status).toBe(401);
      expect(other.body.code).toBe(ErrorCode.tokenInvalid);
    });

    it('answers 403 for a disabled account and 400 for a payload', async () => {
      const user = await createUser(server);
      const token = await issueToken(server, user);
      const payload = await server.call('user/checkToken', { token, body: { x: 1 } });
      expect(payload.status).toBe(400);
      await server.app.db.knex('users').where('id', user.id).update({ status: 'disabled' });
      const banned = await server.call('user/checkToken', { token });
      expect(banned.status).toBe(403);
      expect(banned.body.code).toBe(ErrorCode.userBanned);
    });
  });

  describe('user/signOut', () => {
    it('revokes the token and clears the cookie', async () => {
      const user = await createUser(server);
      const token = await signIn(server, user);
      const out = await server.call('user/signOut', { token });
      expect(out.status).toBe(200);
      expect(out.body).toMatchObject({ code: 0, data: null });
      expect(out.headers.get('set-cookie')).toMatch(/token=;/);
      const after = await server.call('user/checkToken', { token });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe(ErrorCode.tokenInvalid);
    });

    it('answers 401 without a token, 403 for an account without role, 400 for a payload', async () => {
      expect((await server.call('user/signOut')).status).toBe(401);
      const roleless = await createUser(server, { roles: [] });
      const r = await server.call('user/signOut', { token: await issueToken(server, roleless) });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe(ErrorCode.mustHaveRole);
      const user = await createUser(server);
      const p = await server.call('user/signOut', { token: await issueToken(server, user), body: { all: true } });
      expect(p.status).toBe(400);
    });
  });

  describe('user/getUser', () => {
    it('answers the current user with roles, permissions and the menus they may see', async () => {
      const admin = await createUser(server, { roles: ['admin'], mobile: '13600000004' });
      const a = await server.call('user/getUser', { token: await signIn(server, admin) });
      expect(a.status).toBe(200);
      expect(a.body.data).toMatchObject({
        userId: admin.id,
        username: admin.username,
        email: admin.email,
        mobile: '13600000004',
        isSystemRole: true,
        isStudent: false,
        isOperation: false,
        permissions: ['*'],
        roleList: [expect.objectContaining({ code: 'admin' })],
      });
      const codes = a.body.data.menus.map((m: { code: string }) => m.code);
      expect(codes).toEqual(['dashboard', 'all-project', 'dataset-manage', 'template-center', 'job', 'system-log', 'data-connection', 'hyperparameter', 'storage-manage', 'feedback-control', 'ssh', 'sdk-licence', 'admin', 'messages', 'support']);
      // Every page of the catalogue, so the client knows which side-menu entries the roles decide.
      expect(a.body.data.menuPaths).toEqual(expect.arrayContaining(['/admin/users', '/dashboard', '/dataset-manage', '/job']));
      const adminGroup = a.body.data.menus.find((m: { code: string }) => m.code === 'admin');
      expect(adminGroup.children.map((m: { path: string }) => m.path)).toEqual([
        '/admin/users',
        '/admin/roles',
        '/admin/menus',
        '/admin/orgs',
        '/admin/tenants',
        '/admin/licences',
        '/admin/contacts',
      ]);

      const user = await createUser(server);
      const u = await server.call('user/getUser', { token: await issueToken(server, user) });
      expect(u.body.data).toMatchObject({
        isSystemRole: false,
        permissions: ['connections:use', 'dashboard:use', 'datasets:use', 'hyperparameters:use', 'projects:use', 'storage:use', 'templates:use'],
        roleList: [expect.objectContaining({ code: 'user' })],
      });
      expect(u.body.data.menus.map((m: { code: string }) => m.code)).toEqual([
        'dashboard',
        'all-project',
        'dataset-manage',
        'template-center',
        'data-connection',
        'hyperparameter',
        'storage-manage',
        'feedback-control',
        'ssh',
        'sdk-licence',
        'messages',
        'support',
      ]);
    });

    it('answers 401 without a token and 400 for a payload', async () => {
      expect((await server.call('user/getUser')).body.code).toBe(ErrorCode.unauthorized);
      const user = await createUser(server);
      expect((await server.call('user/getUser', { token: await issueToken(server, user), body: { id: 1 } })).status).toBe(400);
    });

    it('answers 403 tenantNotExists when the tenant is disabled, 403 userBanned when the user is', async () => {
      const tenantId = await createTenant(server, 'disabled');
      const user = await createUser(server, { tenantId });
      const t = await server.call('user/getUser', { token: await issueToken(server, user) });
      expect(t.status).toBe(403);
      expect(t.body.code).toBe(ErrorCode.tenantNotExists);
      const banned = await createUser(server, { status: 'disabled' });
      const b = await server.call('user/getUser', { token: await issueToken(server, banned) });
      expect(b.status).toBe(403);
      expect(b.body.code).toBe(ErrorCode.userBanned);
    });
  });

  it('encrypts with the same helper the browser uses', async () => {
    const key = (await server.call('index/getPublicKey')).body.data.spki as string;
    expect(await encryptPassword(key, 'x')).not.toBe(await encryptPassword(key, 'x'));
  });
});
