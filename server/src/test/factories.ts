/**
 * Test factories: users with roles written straight to the database, session tokens (also
 * expired ones), and passwords encrypted the way the browser does (`encryptPassword`).
 */
import { encryptAccountPassword, encryptPassword, type CodeChannel, type CodePurpose, type SignUpRequest } from '@decisio/domain';
import { codeDigest, newCode, normaliseRecipient } from '../modules/codes/service';
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, TENANT_ADMIN_ROLE_ID, USER_ROLE_ID, newId } from '../db/ids';
import { PasswordHasher } from '../modules/account/passwords';
import { hashToken } from '../modules/sessions/service';
import { randomBytes } from 'node:crypto';
import type { TestServer } from './server';

const hasher = new PasswordHasher();
let seq = 0;

/** A unique suffix for usernames and e-mails within a test run. */
export function unique(): string {
  seq += 1;
  return `${Date.now().toString(36).slice(-4)}${seq}`;
}

/** Default plain password of factory users (meets the password rule). */
export const PASSWORD = 'Secret123';

/** A user made by `createUser`. */
export interface TestUser {
  id: string;
  username: string;
  email: string;
  mobile: string | null;
  password: string;
  tenantId: string;
}

/** Options of `createUser`. */
export interface UserSpec {
  username?: string;
  email?: string;
  mobile?: string | null;
  password?: string;
  /** Role codes of the seeded roles; `[]` makes a user without a role. Default `['user']`. */
  roles?: ('admin' | 'user' | 'tenant-admin')[];
  status?: 'enabled' | 'disabled';
  tenantId?: string;
}

/** Creates a tenant (enabled unless told otherwise); returns its id. */
export async function createTenant(server: TestServer, status: 'enabled' | 'disabled' = 'enabled'): Promise<string> {
  const id = newId();
  const now = new Date();
  await server.app.db.knex('tenants').insert({ id, code: `t${unique()}`, name: 'Test tenant', status, created_at: now, updated_at: now });
  return id;
}

/** Inserts a user with an argon2id password hash and the given roles. */
export async function createUser(server: TestServer, spec: UserSpec = {}): Promise<TestUser> {
  const tag = unique();
  const user: TestUser = {
    id: newId(),
    username: spec.username ?? `user_${tag}`,
    email: spec.email ?? `user_${tag}@example.com`,
    mobile: spec.mobile === undefined ? null : spec.mobile,
    password: spec.password ?? PASSWORD,
    tenantId: spec.tenantId ?? DEFAULT_TENANT_ID,
  };
  const now = new Date();
  const knex = server.app.db.knex;
  await knex('users').insert({
    id: user.id,
    tenant_id: user.tenantId,
    username: user.username,
    nickname: null,
    email: user.email,
    mobile: user.mobile,
    password_hash: await hasher.hash(user.password),
    occupation: 'other',
    is_student: false,
    status: spec.status ?? 'enabled',
    created_at: now,
    updated_at: now,
  });
  const roles = spec.roles ?? ['user'];
  if (roles.length > 0) {
    const ids = { admin: ADMIN_ROLE_ID, user: USER_ROLE_ID, 'tenant-admin': TENANT_ADMIN_ROLE_ID };
    await knex('user_roles').insert(roles.map((r) => ({ user_id: user.id, role_id: ids[r] })));
  }
  return user;
}

/** Writes a session for a user directly; `expiresAt` in the past makes an expired token. */
export async function issueToken(server: TestServer, user: TestUser, expiresAt = new Date(Date.now() + 3600_000)): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await server.app.db.knex('sessions').insert({
    id: newId(),
    user_id: user.id,
    tenant_id: user.tenantId,
    token_hash: hashToken(token),
    created_at: new Date(),
    expires_at: expiresAt,
    revoked_at: null,
  });
  return token;
}

/** Encrypts a secret that is not an account password (data connections) with the server's public key. */
export async function encrypted(server: TestServer, plain: string): Promise<string> {
  const reply = await server.call<{ spki: string }>('index/getPublicKey');
  return encryptPassword(reply.body.data.spki, plain);
}

/**
 * Encrypts an account password as the browser does: with the key and one-time nonce of a fresh
 * `index/getPublicKey` answer (sign-in, sign-up).
 */
export async function encryptedPassword(server: TestServer, plain: string): Promise<string> {
  const reply = await server.call<{ spki: string; nonce: string }>('index/getPublicKey');
  return encryptAccountPassword(reply.body.data, plain);
}

/** Signs in through HTTP; returns the access token. */
export async function signIn(server: TestServer, user: TestUser): Promise<string> {
  const reply = await server.call('index/signIn', {
    body: { username: user.username, password: await encryptedPassword(server, user.password) },
  });
  if (reply.body.code !== 0) throw new Error(`sign-in failed: ${JSON.stringify(reply.body)}`);
  return reply.body.data.accessToken as string;
}

/**
 * A valid `index/signUp` body (password encrypted, with a `signUp` code for its e-mail written
 * straight to the database as `issueCode` does), with overrides.
 */
export async function signUpBody(server: TestServer, overrides: Partial<SignUpRequest> & { plainPassword?: string } = {}): Promise<SignUpRequest> {
  const tag = unique();
  const { plainPassword, ...rest } = overrides;
  const email = rest.email ?? `new_${tag}@example.com`;
  return {
    username: `new_${tag}`,
    email,
    occupation: 'algorithmEngineer',
    agreement: true,
    password: await encryptedPassword(server, plainPassword ?? PASSWORD),
    codeChannel: 'email',
    code: rest.code ?? (await issueCode(server, { channel: 'email', recipient: email, purpose: 'signUp' })),
    ...rest,
  };
}

/**
 * Writes a verification code to the database as `index/generate*Code` would (no captcha, no rate
 * limit, no outbox); returns the code.
 */
export async function issueCode(
  server: TestServer,
  target: { channel: CodeChannel; recipient: string; purpose: CodePurpose; userId?: string | null },
  options: { expiresInMs?: number } = {},
): Promise<string> {
  const id = newId();
  const code = newCode(target.channel);
  const now = Date.now();
  await server.app.db.knex('verification_codes').insert({
    id,
    channel: target.channel,
    recipient: normaliseRecipient(target.channel, target.recipient),
    purpose: target.purpose,
    user_id: target.userId ?? null,
    code_hash: codeDigest(id, code),
    attempts: 0,
    client_key: 'test',
    created_at_ms: now,
    expires_at_ms: now + (options.expiresInMs ?? 600_000),
    used_at_ms: null,
  });
  return code;
}

/** A captcha solved by reading its characters from the database. */
export async function solvedCaptcha(server: TestServer): Promise<{ captchaId: string; captchaCode: string }> {
  const reply = await server.call<{ captchaId: string }>('captcha/captchaImage');
  const row = (await server.app.db.knex('captchas').where('id', reply.body.data.captchaId).first('answer')) as { answer: string };
  return { captchaId: reply.body.data.captchaId, captchaCode: row.answer };
}

/** The code of the latest outbox message to `recipient` (development mode keeps it readable). */
export async function outboxCode(server: TestServer, recipient: string): Promise<string> {
  const row = (await server.app.db.knex('outbox').where('recipient', recipient.toLowerCase()).orderBy('created_at', 'desc').first('body')) as { body: string } | undefined;
  const m = row ? /\b([A-Z0-9]{6})\b/.exec(row.body) : null;
  if (!m) throw new Error(`no code in the outbox for ${recipient}`);
  return m[1]!;
}

/** Number of rows of a table. */
export async function countRows(server: TestServer, table: string): Promise<number> {
  const row = (await server.app.db.knex(table).count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}

/**
 * Long-polls `job/wait` until the job's state is final (or `ms` ran out): each answer is a
 * change, and the first may be only `waiting` to `processing` on a loaded machine. Answers the
 * last reply's data and the states it changed to, in order.
 */
export async function waitJobFinal(server: TestServer, token: string, jobId: string, headers: Record<string, string> = {}, ms = 120_000): Promise<{ last: any; states: string[] }> {
  let seen: string | undefined;
  const states: string[] = [];
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await server.call('job/wait', { token, body: { jobId, ...(seen ? { state: seen } : {}), timeoutSeconds: 20 }, headers });
    if (r.body.code !== 0) throw new Error(`job/wait: ${JSON.stringify(r.body)}`);
    if (r.body.data.changed) states.push(r.body.data.state);
    seen = r.body.data.state;
    if (r.body.data.final || Date.now() > deadline) return { last: r.body.data, states };
  }
}
