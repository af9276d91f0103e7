/**
 * Sign-in hardening probes, each a real attack against a real server (spec: SECURITY.md
 * "Sign-in"): a captured encrypted password cannot be replayed, a nonce expires, the throttle
 * locks the account (not the login string) and holds across restarts and across servers of one
 * database, an address is limited over all names, and only an administrator unlocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptAccountPassword, encryptPassword, ErrorCode, type PublicKeyResponse } from '@decisio/domain';
import type { Clock } from '../../src/clock';
import { countRows, createUser, encrypted, encryptedPassword, issueToken, PASSWORD, signUpBody, unique, type TestUser } from '../../src/test/factories';
import { createTestDatabase, databases, startTestServer, type TestServer } from '../../src/test/server';

/** A clock the test moves. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
}

async function keyOf(server: TestServer): Promise<PublicKeyResponse> {
  return (await server.call<PublicKeyResponse>('index/getPublicKey')).body.data;
}

async function signInAs(server: TestServer, username: string, plain: string, headers?: Record<string, string>) {
  return server.call('index/signIn', { body: { username, password: await encryptedPassword(server, plain) }, headers });
}

/** A random documentation-range address, as a client that rotates X-Forwarded-For writes. */
function fakeAddress(): string {
  return `203.0.113.${Math.floor(Math.random() * 250) + 1}`;
}

async function sessionsOf(server: TestServer, user: TestUser): Promise<number> {
  return (await server.app.db.knex('sessions').where('user_id', user.id)).length;
}


/**
 * These tests are about the throttle (the lock per account and per address): the captcha that
 * sign-in asks for after a few failures of an account or of an address (LOGIN_CAPTCHA_AFTER,
 * LOGIN_CAPTCHA_AFTER_ADDRESS, tested in account.test.ts and codes.test.ts) is off, so each try
 * reaches the password check.
 */
const NO_CAPTCHA = { LOGIN_CAPTCHA_AFTER: '0', LOGIN_CAPTCHA_AFTER_ADDRESS: '0' };

describe.each(databases)('sign-in hardening on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: NO_CAPTCHA });
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('one-time nonce', () => {
    it('refuses a captured sign-in body replayed as is (passwordNonceInvalid, no session)', async () => {
      const user = await createUser(server);
      const captured = { username: user.username, password: await encryptedPassword(server, PASSWORD) };
      const first = await server.call('index/signIn', { body: captured });
      expect(first.body.code).toBe(0);
      expect(await sessionsOf(server, user)).toBe(1);

      const replay = await server.call('index/signIn', { body: captured });
      expect(replay.status).toBe(400);
      expect(replay.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(replay.body.data).toBeNull();
      expect(await sessionsOf(server, user)).toBe(1);
      // The same ciphertext under an alias of the account is the same replay.
      const alias = await server.call('index/signIn', { body: { ...captured, username: user.email } });
      expect(alias.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(await sessionsOf(server, user)).toBe(1);
    });

    it('refuses a replay even when the first use was a failed sign-in', async () => {
      const user = await createUser(server);
      const key = await keyOf(server);
      const wrong = await server.call('index/signIn', { body: { username: `nobody_${unique()}`, password: await encryptAccountPassword(key, PASSWORD) } });
      expect(wrong.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      // The attacker saw the ciphertext go to a wrong name and aims it at the real account.
      const again = await server.call('index/signIn', { body: { username: user.username, password: await encryptAccountPassword(key, PASSWORD) } });
      expect(again.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(await sessionsOf(server, user)).toBe(0);
    });

    it('refuses a password without a nonce and a made-up nonce', async () => {
      const user = await createUser(server);
      const key = await keyOf(server);
      const bare = await server.call('index/signIn', { body: { username: user.username, password: await encryptPassword(key.spki, PASSWORD) } });
      expect(bare.body.code).toBe(ErrorCode.passwordNonceInvalid);
      const forged = await server.call('index/signIn', {
        body: { username: user.username, password: await encryptAccountPassword({ spki: key.spki, nonce: 'AAAAAAAAAAAAAAAAAAAAAA' }, PASSWORD) },
      });
      expect(forged.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(await sessionsOf(server, user)).toBe(0);
    });

    it('refuses a replayed sign-up body', async () => {
      const body = await signUpBody(server);
      const first = await server.call('index/signUp', { body });
      expect(first.body.code).toBe(0);
      const users = await countRows(server, 'users');
      // Same ciphertext, another name: the replay would create an account with the victim's password.
      const replay = await server.call('index/signUp', { body: { ...body, username: `rep_${unique()}`, email: `rep_${unique()}@example.com` } });
      expect(replay.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(await countRows(server, 'users')).toBe(users);
    });

    it('does not decrypt a captured account password through another call (data-connection password)', async () => {
      const attacker = await createUser(server);
      const token = await issueToken(server, attacker);
      // A victim's sign-in ciphertext, stored as a connection password, would later be sent in
      // clear to a database server the attacker names.
      const captured = await encryptedPassword(server, 'VictimSecret1');
      const before = await countRows(server, 'data_connections');
      const reply = await server.call('jobJdbcDatasource/createDataSourceLink', {
        token,
        body: { type: 'mysql', name: `grab ${unique()}`, group: 'x', url: 'jdbc:mysql://db.example.com:3306/shop', username: 'u', password: captured, remark: '' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.code).toBe(ErrorCode.paramInvalid);
      expect(reply.body.errors).toHaveProperty('password');
      expect(await countRows(server, 'data_connections')).toBe(before);
      // A connection password encrypted for connections is still accepted.
      const plain = await server.call('jobJdbcDatasource/createDataSourceLink', {
        token,
        body: { type: 'mysql', name: `ok ${unique()}`, group: 'x', url: 'jdbc:mysql://db.example.com:3306/shop', username: 'u', password: await encrypted(server, 'conn-pw'), remark: '' },
      });
      expect(plain.body.code).toBe(0);
    });

    it('accepts a nonce once across two servers of one database', async () => {
      const user = await createUser(server);
      const other = await startTestServer(kind, { databaseUrl: server.databaseUrl, migrate: false, env: NO_CAPTCHA });
      try {
        const body = { username: user.username, password: await encryptedPassword(server, PASSWORD) };
        const onOther = await other.call('index/signIn', { body });
        expect(onOther.body.code).toBe(0);
        const back = await server.call('index/signIn', { body });
        expect(back.body.code).toBe(ErrorCode.passwordNonceInvalid);
        // Concurrent use of one fresh body on both servers: exactly one wins.
        const racing = { username: user.username, password: await encryptedPassword(other, PASSWORD) };
        const replies = await Promise.all([server.call('index/signIn', { body: racing }), other.call('index/signIn', { body: racing })]);
        expect(replies.map((r) => r.body.code).sort()).toEqual([0, ErrorCode.passwordNonceInvalid]);
        expect(await sessionsOf(server, user)).toBe(2);
      } finally {
        await other.stop();
      }
    });
  });

  describe('nonce expiry', () => {
    const clock = movableClock();
    let timed: TestServer;
    beforeAll(async () => {
      timed = await startTestServer(kind, { clock, env: NO_CAPTCHA });
    });
    afterAll(async () => {
      await timed?.stop();
    });

    it('refuses a nonce used after its expiry, accepts one used within it', async () => {
      const user = await createUser(timed);
      const late = await keyOf(timed);
      const lateBody = { username: user.username, password: await encryptAccountPassword(late, PASSWORD) };
      const soon = { username: user.username, password: await encryptedPassword(timed, PASSWORD) };
      clock.advance(timed.config.passwordNonceTtlMs - 5_000);
      expect((await timed.call('index/signIn', { body: soon })).body.code).toBe(0);
      clock.advance(10_000);
      const expired = await timed.call('index/signIn', { body: lateBody });
      expect(expired.body.code).toBe(ErrorCode.passwordNonceInvalid);
      expect(await sessionsOf(timed, user)).toBe(1);
    });
  });

  describe('throttle', () => {
    // The address limit has its own probe (own server); here it must not get in the way.
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { ...NO_CAPTCHA, LOGIN_ADDRESS_MAX_FAILURES: '1000' } });
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('locks the account, not the login string: the e-mail and mobile aliases are refused with userLocked', async () => {
      const user = await createUser(server, { mobile: `139${String(Date.now()).slice(-8)}` });
      for (let i = 0; i < server.config.loginMaxFailures; i++) {
        expect((await signInAs(server, user.username, 'Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      }
      for (const alias of [user.username, user.email, user.email.toUpperCase(), user.mobile!]) {
        const reply = await signInAs(server, alias, PASSWORD);
        expect(reply.status).toBe(403);
        expect(reply.body.code).toBe(ErrorCode.userLocked);
      }
      expect(await sessionsOf(server, user)).toBe(0);
    });

    it('counts failures through every alias together', async () => {
      const user = await createUser(server, { mobile: `138${String(Date.now()).slice(-8)}` });
      const aliases = [user.username, user.email, user.mobile!];
      for (let i = 0; i < server.config.loginMaxFailures; i++) {
        expect((await signInAs(server, aliases[i % aliases.length]!, 'Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      }
      expect((await signInAs(server, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
    });

    it('lets no more parallel guesses through than the limit', async () => {
      const user = await createUser(server);
      const keys = await Promise.all(Array.from({ length: 12 }, () => encryptedPassword(server, 'Wrong1234')));
      const replies = await Promise.all(keys.map((password) => server.call('index/signIn', { body: { username: user.username, password } })));
      const checked = replies.filter((r) => r.body.code === ErrorCode.wrongLoginNameOrPassword).length;
      expect(checked).toBeLessThanOrEqual(server.config.loginMaxFailures);
      expect(replies.filter((r) => r.body.code === ErrorCode.userLocked).length).toBe(12 - checked);
      expect((await signInAs(server, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
    });

    it('keeps the lock across a restart on the same database and on a second server of it', async () => {
      const database = await createTestDatabase(kind);
      const databaseUrl = database.url;
      let restarted: TestServer | undefined;
      let second: TestServer | undefined;
      try {
        const first = await startTestServer(kind, { databaseUrl, env: NO_CAPTCHA });
        const user = await createUser(first);
        for (let i = 0; i < first.config.loginMaxFailures; i++) await signInAs(first, user.email, 'Wrong1234');
        expect((await signInAs(first, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        // Restart: a new server over the same database (the first one is stopped, its memory gone).
        await first.stop();
        restarted = await startTestServer(kind, { databaseUrl, migrate: false, env: NO_CAPTCHA });
        expect((await signInAs(restarted, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        // A second server process of the same database, running alongside.
        second = await startTestServer(kind, { databaseUrl, migrate: false, env: NO_CAPTCHA });
        expect((await signInAs(second, user.email, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        expect(await sessionsOf(restarted, user)).toBe(0);
      } finally {
        await second?.stop();
        await restarted?.stop();
        await database.drop();
      }
    });

    it('unlocks after the lock time', async () => {
      const clock = movableClock();
      const timed = await startTestServer(kind, { clock, env: NO_CAPTCHA });
      try {
        const user = await createUser(timed);
        for (let i = 0; i < timed.config.loginMaxFailures; i++) await signInAs(timed, user.username, 'Wrong1234');
        expect((await signInAs(timed, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        clock.advance(timed.config.loginLockMs - 10_000);
        expect((await signInAs(timed, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        clock.advance(20_000);
        expect((await signInAs(timed, user.username, PASSWORD)).body.code).toBe(0);
      } finally {
        await timed.stop();
      }
    });

    it('answers an unknown name like an account: locked after the same number of failures', async () => {
      const ghost = `ghost_${unique()}`;
      for (let i = 0; i < server.config.loginMaxFailures; i++) {
        expect((await signInAs(server, ghost, 'Wrong1234')).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
      }
      expect((await signInAs(server, ghost, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
    });

    it('limits one client address over many login names (tooManyRequests), also for a right password', async () => {
      const own = await startTestServer(kind, { env: NO_CAPTCHA });
      try {
        const victim = await createUser(own);
        const max = own.config.loginAddressMaxFailures;
        // Password spraying: one guess per name (one at the real account), none enough to lock a
        // name, each with a made-up X-Forwarded-For (believed from no one: TRUST_PROXY is off).
        expect((await signInAs(own, victim.username, 'Guess0xyZ', { 'X-Forwarded-For': fakeAddress() })).body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
        for (let i = 1; i < max; i++) {
          const r = await signInAs(own, `spray_${i}_${unique()}`, `Guess${i}xyZ`, { 'X-Forwarded-For': fakeAddress() });
          expect(r.body.code).toBe(ErrorCode.wrongLoginNameOrPassword);
        }
        const blocked = await signInAs(own, `fresh_${unique()}`, 'Guess1xyZ', { 'X-Forwarded-For': fakeAddress() });
        expect(blocked.status).toBe(429);
        expect(blocked.body.code).toBe(ErrorCode.tooManyRequests);
        // Even the right password of an unlocked account is refused from this address now.
        const right = await signInAs(own, victim.username, PASSWORD);
        expect(right.body.code).toBe(ErrorCode.tooManyRequests);
        expect(await sessionsOf(own, victim)).toBe(0);
      } finally {
        await own.stop();
      }
    });

    it('behind a trusted proxy, counts each forwarded client address on its own', async () => {
      const proxied = await startTestServer(kind, { env: { ...NO_CAPTCHA, TRUST_PROXY: '127.0.0.1', LOGIN_ADDRESS_MAX_FAILURES: '3' } });
      try {
        const user = await createUser(proxied);
        const attacker = { 'X-Forwarded-For': '198.51.100.7' };
        for (let i = 0; i < 3; i++) await signInAs(proxied, `spray_${i}_${unique()}`, 'Guess1xyZ', attacker);
        expect((await signInAs(proxied, user.username, PASSWORD, attacker)).body.code).toBe(ErrorCode.tooManyRequests);
        // A client that writes its own X-Forwarded-For in front of the proxy's entry is still the attacker.
        expect((await signInAs(proxied, user.username, PASSWORD, { 'X-Forwarded-For': '192.0.2.1, 198.51.100.7' })).body.code).toBe(ErrorCode.tooManyRequests);
        // Another client behind the same proxy is not affected.
        expect((await signInAs(proxied, user.username, PASSWORD, { 'X-Forwarded-For': '198.51.100.8' })).body.code).toBe(0);
        // An IPv6 client rotating through the addresses of its /64 is one client.
        for (let i = 1; i <= 3; i++) await signInAs(proxied, `spray6_${i}_${unique()}`, 'Guess1xyZ', { 'X-Forwarded-For': `2001:db8:7:1::${i.toString(16)}` });
        const rotated = await signInAs(proxied, user.username, PASSWORD, { 'X-Forwarded-For': '2001:db8:7:1:ffff:abcd:1:2' });
        expect(rotated.body.code).toBe(ErrorCode.tooManyRequests);
        expect((await signInAs(proxied, user.username, PASSWORD, { 'X-Forwarded-For': '2001:db8:7:2::1' })).body.code).toBe(0);
      } finally {
        await proxied.stop();
      }
    });

    it('clears the account count on a successful sign-in', async () => {
      const user = await createUser(server);
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < server.config.loginMaxFailures - 1; i++) await signInAs(server, user.username, 'Wrong1234');
        expect((await signInAs(server, user.username, PASSWORD)).body.code).toBe(0);
      }
    });
  });

  describe('users/unlockUser', () => {
    it('lets an administrator unlock an account; a plain user cannot', async () => {
      const own = await startTestServer(kind, { env: NO_CAPTCHA });
      try {
        const admin = await createUser(own, { roles: ['admin'] });
        const adminToken = await issueToken(own, admin);
        const plain = await createUser(own);
        const plainToken = await issueToken(own, plain);
        const user = await createUser(own);
        for (let i = 0; i < own.config.loginMaxFailures; i++) await signInAs(own, user.username, 'Wrong1234');
        expect((await signInAs(own, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);
        const lockOf = async () => {
          const list = await own.call('users/getUserList', { token: adminToken, body: { pageSize: 100 } });
          return list.body.data.rows.find((r: { userId: string }) => r.userId === user.id).signInLockedUntil as string | null;
        };
        expect(new Date((await lockOf())!).getTime()).toBeGreaterThan(Date.now() + own.config.loginLockMs - 60_000);

        const anonymous = await own.call('users/unlockUser', { body: { userId: user.id } });
        expect(anonymous.status).toBe(401);
        const denied = await own.call('users/unlockUser', { token: plainToken, body: { userId: user.id } });
        expect(denied.status).toBe(403);
        expect(denied.body.code).toBe(ErrorCode.userNotPermission);
        // Nor can a plain user unlock themselves.
        const self = await own.call('users/unlockUser', { token: plainToken, body: { userId: plain.id } });
        expect(self.status).toBe(403);
        expect((await signInAs(own, user.username, PASSWORD)).body.code).toBe(ErrorCode.userLocked);

        const done = await own.call('users/unlockUser', { token: adminToken, body: { userId: user.id } });
        expect(done.status).toBe(200);
        expect(done.body).toMatchObject({ code: 0, data: { userId: user.id, unlocked: true } });
        expect(await lockOf()).toBeNull();
        expect((await signInAs(own, user.email, PASSWORD)).body.code).toBe(0);
      } finally {
        await own.stop();
      }
    });
  });
});
