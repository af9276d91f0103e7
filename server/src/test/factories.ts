/**
 * Test factories: users with roles written straight to the database, session tokens (also
 * expired ones), and passwords encrypted the way the browser does (`encryptPassword`).
 */
import { encryptAccountPassword, encryptPassword, type SignUpRequest } from '@decisio/domain';
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, USER_ROLE_ID, newId } from '../db/ids';
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
  roles?: ('admin' | 'user')[];
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
    await knex('user_roles').insert(roles.map((r) => ({ user_id: user.id, role_id: r === 'admin' ? ADMIN_ROLE_ID : USER_ROLE_ID })));
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

/** A valid `index/signUp` body (password encrypted), with overrides. */
export async function signUpBody(server: TestServer, overrides: Partial<SignUpRequest> & { plainPassword?: string } = {}): Promise<SignUpRequest> {
  const tag = unique();
  const { plainPassword, ...rest } = overrides;
  return {
    username: `new_${tag}`,
    email: `new_${tag}@example.com`,
    occupation: 'algorithmEngineer',
    agreement: true,
    password: await encryptedPassword(server, plainPassword ?? PASSWORD),
    ...rest,
  };
}

/** Number of rows of a table. */
export async function countRows(server: TestServer, table: string): Promise<number> {
  const row = (await server.app.db.knex(table).count({ n: '*' }).first()) as { n: number | string };
  return Number(row.n);
}
