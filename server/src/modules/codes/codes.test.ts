import net from 'node:net';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@decisio/domain';
import { createUser, encryptedPassword, issueCode, issueToken, outboxCode, PASSWORD, signUpBody, solvedCaptcha, unique } from '../../test/factories';
import { databases, startTestServer, type TestServer } from '../../test/server';
import { CAPTCHA_ALPHABET, drawCaptcha } from './captcha-svg';

describe('captcha pictures', () => {
  it('draws the characters as paths, never as text', () => {
    const svg = drawCaptcha('AC23X');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).not.toMatch(/<text|AC23X/);
    expect((svg.match(/<path /g) ?? []).length).toBeGreaterThanOrEqual(5 + 4 + 6);
    expect(CAPTCHA_ALPHABET).not.toMatch(/[01OI9]/);
  });
});

describe.each(databases)('verification codes on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sendEmail = async (email: string, purpose = 'signUp', token?: string) =>
    server.call('index/generateEmailCode', { body: { email, purpose, ...(await solvedCaptcha(server)) }, token });

  describe('captcha/captchaImage', () => {
    it('answers an SVG picture whose characters are accepted once', async () => {
      const reply = await server.call('captcha/captchaImage');
      expect(reply.status).toBe(200);
      expect(reply.body.data.image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(reply.body.data.captchaId).toMatch(/^[0-9a-f]{32}$/);
      const bad = await server.call('captcha/captchaImage', { body: { x: 1 } });
      expect(bad.status).toBe(400);
    });

    it('is required to send a code: missing, wrong and reused answers are refused', async () => {
      const email = `cap_${unique()}@example.com`;
      const none = await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp' } });
      expect(none.status).toBe(400);
      expect(none.body.code).toBe(ErrorCode.paramInvalid);
      const wrong = await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp', captchaId: (await solvedCaptcha(server)).captchaId, captchaCode: 'ZZZZZ' } });
      expect(wrong.body.code).toBe(ErrorCode.captchaMismatch);
      const solved = await solvedCaptcha(server);
      const ok = await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp', ...solved, captchaCode: solved.captchaCode.toLowerCase() } });
      expect(ok.body.code).toBe(0);
      const again = await server.call('index/generateEmailCode', { body: { email: `x${email}`, purpose: 'signUp', ...solved } });
      expect(again.body.code).toBe(ErrorCode.captchaMismatch);
    });
  });

  describe('an expired captcha', () => {
    it('is refused as expired (not as misread), right answer or wrong, and used up', async () => {
      const email = `late_cap_${unique()}@example.com`;
      for (const misread of [false, true]) {
        const solved = await solvedCaptcha(server);
        await server.app.db.knex('captchas').where('id', solved.captchaId).update({ expires_at_ms: Date.now() - 1 });
        const late = await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp', ...solved, ...(misread ? { captchaCode: 'ZZZZZ' } : {}) }, headers: { 'Accept-Language': 'en-US' } });
        expect(late.body.code).toBe(ErrorCode.captchaExpired);
        expect(late.body.message).toBe('The picture has expired; type the characters of the new picture');
        expect(await server.app.db.knex('captchas').where('id', solved.captchaId).first()).toBeUndefined();
      }
      // A fresh picture answers as usual.
      expect((await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp', ...(await solvedCaptcha(server)) } })).body.code).toBe(0);
    });

    it('answers sign-in with captchaExpired in the caller\'s language', async () => {
      const user = await createUser(server);
      const attempt = async (password: string, captcha: object = {}) =>
        server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, password), ...captcha }, headers: { 'Accept-Language': 'zh-CN' } });
      for (let i = 0; i < 3; i++) expect((await attempt('Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      expect((await attempt(PASSWORD)).body.code).toBe(ErrorCode.captchaRequired);
      const solved = await solvedCaptcha(server);
      await server.app.db.knex('captchas').where('id', solved.captchaId).update({ expires_at_ms: Date.now() - 1 });
      const late = await attempt(PASSWORD, solved);
      expect(late.body.code).toBe(ErrorCode.captchaExpired);
      expect(late.body.message).toBe('图片验证码已过期，请输入新图片中的字符');
      expect((await attempt(PASSWORD, await solvedCaptcha(server))).body.code).toBe(0);
    });
  });

  describe('index/generateEmailCode and index/verifyEmailCode', () => {
    it('sends a 6-character code to the outbox and the log (development mode) and verifies it', async () => {
      const email = `Code_${unique()}@Example.com`;
      const reply = await sendEmail(email);
      expect(reply.status).toBe(200);
      expect(reply.body.data.sentTo).toMatch(/^c\*\*\*@example\.com$/);
      expect(reply.body.data.resendSeconds).toBe(60);
      const row = await server.app.db.knex('outbox').where('recipient', email.toLowerCase()).first();
      expect(row).toMatchObject({ channel: 'email', status: 'logged', purpose: 'signUp' });
      const code = await outboxCode(server, email);
      expect(code).toMatch(/^[A-Z0-9]{6}$/);
      // Only a digest is kept with the code row.
      const stored = await server.app.db.knex('verification_codes').where('recipient', email.toLowerCase()).first();
      expect(stored.code_hash).not.toContain(code);

      const wrong = await server.call('index/verifyEmailCode', { body: { email, purpose: 'signUp', code: code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA' } });
      expect(wrong.body.code).toBe(ErrorCode.verifyCodeMismatch);
      const right = await server.call('index/verifyEmailCode', { body: { email, purpose: 'signUp', code: code.toLowerCase() } });
      expect(right.body).toMatchObject({ code: 0, data: { valid: true } });
      const otherPurpose = await server.call('index/verifyEmailCode', { body: { email, purpose: 'resetPassword', code } });
      expect(otherPurpose.body.code).toBe(ErrorCode.verifyCodeMismatch);
    });

    it('answers 400 for bad input', async () => {
      const a = await server.call('index/generateEmailCode', { body: { email: 'not-mail', purpose: 'signUp', ...(await solvedCaptcha(server)) } });
      expect(a.status).toBe(400);
      expect(Object.keys(a.body.errors ?? {})).toContain('email');
      const b = await server.call('index/verifyEmailCode', { body: { email: 'a@example.com', purpose: 'signUp', code: '12' } });
      expect(b.status).toBe(400);
      const c = await server.call('index/verifySmsCode', { body: { mobile: '13800000000', purpose: 'signUp', code: 'ABCDEF' } });
      expect(c.status).toBe(400);
      const d = await server.call('index/generateEmailCode', { body: { email: 'a@example.com', purpose: 'other', ...(await solvedCaptcha(server)) } });
      expect(d.status).toBe(400);
    });

    it('limits resends per recipient and sends per client address', async () => {
      const email = `rate_${unique()}@example.com`;
      expect((await sendEmail(email)).body.code).toBe(0);
      const soon = await sendEmail(email);
      expect(soon.status).toBe(429);
      expect(soon.body.code).toBe(ErrorCode.tooManyRequests);
      const wait = await server.call('index/expirationTime', { body: { channel: 'email', recipient: email } });
      expect(wait.body.data).toMatchObject({ codeTtlSeconds: 600, resendSeconds: 60 });
      expect(wait.body.data.resendInSeconds).toBeGreaterThan(50);
      // Another purpose is not held up by the pause (its account exists only for resetPassword).
      const user = await createUser(server);
      expect((await sendEmail(user.email, 'resetPassword')).body.code).toBe(0);
      expect((await sendEmail(user.email, 'resetPassword')).body.code).toBe(ErrorCode.tooManyRequests);
      // The address limit: rows of this client within the hour.
      const limited = await startTestServer(kind, { env: { CODE_ADDRESS_MAX_PER_HOUR: '2' } });
      try {
        const send = async (to: string) => limited.call('index/generateEmailCode', { body: { email: to, purpose: 'signUp', ...(await solvedCaptcha(limited)) } });
        expect((await send(`a_${unique()}@example.com`)).body.code).toBe(0);
        expect((await send(`b_${unique()}@example.com`)).body.code).toBe(0);
        expect((await send(`c_${unique()}@example.com`)).body.code).toBe(ErrorCode.tooManyRequests);
      } finally {
        await limited.stop();
      }
    });

    it('voids a code after five wrong tries, and refuses an expired or used one', async () => {
      const email = `tries_${unique()}@example.com`;
      const code = await issueCode(server, { channel: 'email', recipient: email, purpose: 'signUp' });
      const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
      for (let i = 0; i < 5; i++) expect((await server.call('index/verifyEmailCode', { body: { email, purpose: 'signUp', code: wrong } })).body.code).toBe(ErrorCode.verifyCodeMismatch);
      expect((await server.call('index/verifyEmailCode', { body: { email, purpose: 'signUp', code } })).body.code).toBe(ErrorCode.verifyCodeExpired);

      const late = `late_${unique()}@example.com`;
      const old = await issueCode(server, { channel: 'email', recipient: late, purpose: 'signUp' }, { expiresInMs: -1 });
      expect((await server.call('index/verifyEmailCode', { body: { email: late, purpose: 'signUp', code: old } })).body.code).toBe(ErrorCode.verifyCodeExpired);

      const body = await signUpBody(server);
      expect((await server.call('index/signUp', { body })).body.code).toBe(0);
      const reuse = await server.call('index/verifyEmailCode', { body: { email: body.email, purpose: 'signUp', code: body.code } });
      expect(reuse.body.code).toBe(ErrorCode.codeUsed);
    });

    it('refuses a sign-up code for a registered address and a reset code for an unknown one', async () => {
      const user = await createUser(server);
      expect((await sendEmail(user.email)).body.code).toBe(ErrorCode.emailRegistered);
      expect((await sendEmail(`nobody_${unique()}@example.com`, 'resetPassword')).body.code).toBe(ErrorCode.accountNotRegistered);
    });

    it('needs a session for account-bound purposes (401 without; 403 for an account without role)', async () => {
      const email = `bound_${unique()}@example.com`;
      const none = await sendEmail(email, 'changeContact');
      expect(none.status).toBe(401);
      const roleless = await createUser(server, { roles: [] });
      const refused = await sendEmail(email, 'changeContact', await issueToken(server, roleless));
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(ErrorCode.mustHaveRole);
      const user = await createUser(server);
      const ok = await sendEmail(email, 'changeContact', await issueToken(server, user));
      expect(ok.body.code).toBe(0);
      // The code is bound to that account: checked without its session it does not match.
      const code = await outboxCode(server, email);
      const other = await createUser(server);
      const foreign = await server.call('index/verifyEmailCode', { body: { email, purpose: 'changeContact', code }, token: await issueToken(server, other) });
      expect(foreign.body.code).toBe(ErrorCode.verifyCodeMismatch);
      const own = await server.call('index/verifyEmailCode', { body: { email, purpose: 'changeContact', code }, token: await issueToken(server, user) });
      expect(own.body.code).toBe(0);
    });
  });

  describe('index/generateSmsCode', () => {
    it('sends 6 digits', async () => {
      const mobile = `139${String(Date.now()).slice(-8)}`;
      const reply = await server.call('index/generateSmsCode', { body: { mobile, purpose: 'signUp', ...(await solvedCaptcha(server)) } });
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.sentTo).toBe(`${mobile.slice(0, 3)}****${mobile.slice(-4)}`);
      const code = await outboxCode(server, mobile);
      expect(code).toMatch(/^\d{6}$/);
      expect((await server.call('index/verifySmsCode', { body: { mobile, purpose: 'signUp', code } })).body.code).toBe(0);
    });
  });

  describe('index/resetPassword', () => {
    it('sets a new password with the code from the outbox; the old one and old sessions stop working', async () => {
      const user = await createUser(server);
      const oldToken = await issueToken(server, user);
      expect((await sendEmail(user.email, 'resetPassword')).body.code).toBe(0);
      const code = await outboxCode(server, user.email);
      const same = await server.call('index/resetPassword', { body: { email: user.email, code, password: await encryptedPassword(server, PASSWORD) } });
      expect(same.body.code).toBe(ErrorCode.newPasswordSameAsOld);
      const weak = await server.call('index/resetPassword', { body: { email: user.email, code, password: await encryptedPassword(server, 'weak') } });
      expect(weak.status).toBe(400);
      const ok = await server.call('index/resetPassword', { body: { email: user.email, code, password: await encryptedPassword(server, 'NewSecret456') } });
      expect(ok.body).toMatchObject({ code: 0, data: { userId: user.id } });
      const reused = await server.call('index/resetPassword', { body: { email: user.email, code, password: await encryptedPassword(server, 'Other789Abc') } });
      expect(reused.body.code).toBe(ErrorCode.codeUsed);
      expect((await server.call('user/checkToken', { token: oldToken })).status).toBe(401);
      const signIn = async (password: string) => server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, password) } });
      expect((await signIn(PASSWORD)).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      expect((await signIn('NewSecret456')).body.code).toBe(0);
    });

    it('answers bad input, an unknown account and a wrong code', async () => {
      const bad = await server.call('index/resetPassword', { body: { email: 'x@example.com', code: '1', password: 'short' } });
      expect(bad.status).toBe(400);
      const nobody = await server.call('index/resetPassword', { body: { email: `no_${unique()}@example.com`, code: 'ABC123', password: await encryptedPassword(server, 'NewSecret456') } });
      expect(nobody.body.code).toBe(ErrorCode.accountNotRegistered);
      const user = await createUser(server, { mobile: `137${String(Date.now()).slice(-8)}` });
      await issueCode(server, { channel: 'sms', recipient: user.mobile!, purpose: 'resetPassword' });
      const wrong = await server.call('index/resetPassword', { body: { mobile: user.mobile, code: '000000', password: await encryptedPassword(server, 'NewSecret456') } });
      expect([ErrorCode.verifyCodeMismatch]).toContain(wrong.body.code);
    });
  });

  describe('sign-in captcha after repeated failures', () => {
    it('asks for a captcha after three failures, then accepts a solved one', async () => {
      const user = await createUser(server);
      const attempt = async (password: string, captcha: object = {}) =>
        server.call('index/signIn', { body: { username: user.username, password: await encryptedPassword(server, password), ...captcha } });
      for (let i = 0; i < 3; i++) expect((await attempt('Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      expect((await attempt(PASSWORD)).body.code).toBe(ErrorCode.captchaRequired);
      expect((await attempt(PASSWORD, { captchaId: (await solvedCaptcha(server)).captchaId, captchaCode: 'ZZZZZ' })).body.code).toBe(ErrorCode.captchaMismatch);
      expect((await attempt(PASSWORD, await solvedCaptcha(server))).body.code).toBe(0);
      // A success clears the count: no captcha next time.
      expect((await attempt(PASSWORD)).body.code).toBe(0);
    });
  });

  describe('outbox/getOutboxList', () => {
    it('lists messages for administrators only', async () => {
      const admin = await createUser(server, { roles: ['admin'] });
      const email = `list_${unique()}@example.com`;
      await sendEmail(email);
      const reply = await server.call('outbox/getOutboxList', { body: { recipient: email }, token: await issueToken(server, admin) });
      expect(reply.body.code).toBe(0);
      expect(reply.body.data.transports).toEqual({ email: null, sms: null });
      expect(reply.body.data.rows).toHaveLength(1);
      expect(reply.body.data.rows[0].body).toContain(await outboxCode(server, email));
      const user = await createUser(server);
      expect((await server.call('outbox/getOutboxList', { body: {}, token: await issueToken(server, user) })).body.code).toBe(ErrorCode.userNotPermission);
      expect((await server.call('outbox/getOutboxList', { body: {} })).status).toBe(401);
      expect((await server.call('outbox/getOutboxList', { body: { pageSize: 1000 }, token: await issueToken(server, admin) })).status).toBe(400);
    });
  });
});

/** A minimal SMTP receiver (RFC 5321 happy path) that keeps what it was given. */
function smtpReceiver(): Promise<{ port: number; messages: string[]; close(): Promise<void> }> {
  const messages: string[] = [];
  const server = net.createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      while (true) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test\r\n');
        else if (verb === 'DATA') {
          data = true;
          socket.write('354 go\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ port: (server.address() as net.AddressInfo).port, messages, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

describe('transports', () => {
  it('delivers e-mail codes over SMTP (nodemailer) and masks the kept copy', async () => {
    const smtp = await smtpReceiver();
    const server = await startTestServer('sqlite', { env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Decisio <codes@example.com>' } });
    try {
      const email = `smtp_${unique()}@example.com`;
      const reply = await server.call('index/generateEmailCode', { body: { email, purpose: 'signUp', ...(await solvedCaptcha(server)) }, headers: { 'Accept-Language': 'en-US' } });
      expect(reply.body.code).toBe(0);
      expect(smtp.messages).toHaveLength(1);
      const code = /code to sign up is ([A-Z0-9]{6})/.exec(smtp.messages[0]!.replace(/=\r\n/g, ''))?.[1];
      expect(code).toMatch(/^[A-Z0-9]{6}$/);
      const row = await server.app.db.knex('outbox').where('recipient', email).first();
      expect(row.status).toBe('sent');
      expect(row.body).not.toContain(code);
      expect(row.body).toContain('******');
      expect((await server.call('index/verifyEmailCode', { body: { email, purpose: 'signUp', code } })).body.code).toBe(0);
    } finally {
      await server.stop();
      await smtp.close();
    }
  });

  it('sends SMS through the HTTP adapter behind the host guard', async () => {
    const received: { to: string; text: string; auth?: string }[] = [];
    const provider = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ ...(JSON.parse(body) as { to: string; text: string }), auth: req.headers.authorization });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', () => r()));
    const port = (provider.address() as net.AddressInfo).port;
    const smsUrl = `http://127.0.0.1:${port}/send`;
    const mobile = `138${String(Date.now()).slice(-8)}`;
    // Loopback is refused unless the operator allows it.
    const guarded = await startTestServer('sqlite', { env: { SMS_URL: smsUrl, CONNECTION_ALLOW: '' } });
    try {
      const refused = await guarded.call('index/generateSmsCode', { body: { mobile, purpose: 'signUp', ...(await solvedCaptcha(guarded)) } });
      expect(refused.body.code).toBe(ErrorCode.codeSendFailed);
      expect(received).toHaveLength(0);
      expect((await guarded.app.db.knex('outbox').first()).status).toBe('failed');
    } finally {
      await guarded.stop();
    }
    const allowed = await startTestServer('sqlite', { env: { SMS_URL: smsUrl, SMS_TOKEN: 'tok', CONNECTION_ALLOW: '127.0.0.1/32' } });
    try {
      const ok = await allowed.call('index/generateSmsCode', { body: { mobile, purpose: 'signUp', ...(await solvedCaptcha(allowed)) } });
      expect(ok.body.code).toBe(0);
      expect(received).toHaveLength(1);
      expect(received[0]).toMatchObject({ to: mobile, auth: 'Bearer tok' });
      const code = /(\d{6})/.exec(received[0]!.text)![1]!;
      expect((await allowed.call('index/verifySmsCode', { body: { mobile, purpose: 'signUp', code } })).body.code).toBe(0);
    } finally {
      await allowed.stop();
      await new Promise((r) => provider.close(r));
    }
  });
});
