/**
 * Account management by admins (`users/addUser`, `updateUser`, `deleteUser`, `resetPassword`,
 * `checkNameAndPhone`): roles, organisation and tenant of an account. New accounts and reset
 * ones get a temporary password, answered once to the admin, which the user must change at the
 * next sign-in (`users.must_change_password`; the route check refuses everything else meanwhile).
 */
import { randomInt } from 'node:crypto';
import { AppError, type AddUserRequest, type CheckNameAndPhoneRequest, type CheckNameAndPhoneResponse, type TemporaryPasswordResponse, type UpdateUserRequest } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { AuthUser } from '../../http/context';
import type { RolesService } from '../access/roles';
import type { PasswordHasher } from '../account/passwords';
import type { SessionService } from '../sessions/service';

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';

/** A random 14-character password meeting the password rule (digit, lower and upper case). */
export function temporaryPassword(): string {
  const all = LOWER + UPPER + DIGITS;
  const chars = [LOWER, UPPER, DIGITS].map((set) => set[randomInt(set.length)]!);
  while (chars.length < 14) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

/** Rows that keep an account (owned data): delete refuses with `deleteAccountFailed` while any exists. */
const OWNED: { table: string; column: string }[] = [
  { table: 'projects', column: 'owner_id' },
  { table: 'data_connections', column: 'owner_id' },
  { table: 'data_imports', column: 'owner_id' },
];

export class UserManagement {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly roles: RolesService,
  ) {}

  /** The tenant an account goes to: the caller's unless a system admin names another (which must exist). */
  private async targetTenant(actor: AuthUser, tenantId: string | undefined): Promise<string> {
    if (!tenantId || tenantId === actor.tenantId) return actor.tenantId;
    if (!actor.isSystemRole) throw new AppError('authorizationFailed');
    if (!(await this.db.executor()('tenants').where('id', tenantId).first('id'))) throw new AppError('tenantNotExists');
    return tenantId;
  }

  private async assertOrg(tenantId: string, orgId: string | null | undefined): Promise<void> {
    if (!orgId) return;
    if (!(await this.db.executor()('organisations').where({ id: orgId, tenant_id: tenantId }).first('id'))) throw new AppError('orgNotFound');
  }

  /** Username (any case), e-mail and mobile are unique over every tenant. */
  private async assertFree(fields: { username?: string; email?: string; mobile?: string | null }, exceptId?: string): Promise<void> {
    const knex = this.db.executor();
    const other = (q: ReturnType<typeof knex>) => (exceptId ? q.whereNot('id', exceptId) : q);
    if (fields.username && (await other(knex('users').whereRaw('lower(username) = ?', [fields.username.toLowerCase()])).first('id'))) throw new AppError('usernameRegistered');
    if (fields.email && (await other(knex('users').where('email', fields.email.toLowerCase())).first('id'))) throw new AppError('emailRegistered');
    if (fields.mobile && (await other(knex('users').where('mobile', fields.mobile)).first('id'))) throw new AppError('mobileRegistered');
  }

  async checkNameAndPhone(input: CheckNameAndPhoneRequest): Promise<CheckNameAndPhoneResponse> {
    const knex = this.db.executor();
    const free = async (q: ReturnType<typeof knex>) => !(await (input.exceptUserId ? q.whereNot('id', input.exceptUserId) : q).first('id'));
    return {
      usernameFree: input.username === undefined ? null : await free(knex('users').whereRaw('lower(username) = ?', [input.username.toLowerCase()])),
      mobileFree: input.mobile === undefined ? null : await free(knex('users').where('mobile', input.mobile)),
    };
  }

  async add(actor: AuthUser, input: AddUserRequest): Promise<TemporaryPasswordResponse> {
    const tenantId = await this.targetTenant(actor, input.tenantId);
    await this.roles.assertAssignable(actor, tenantId, input.roleIds);
    await this.assertOrg(tenantId, input.orgId);
    const email = input.email.toLowerCase();
    await this.assertFree({ username: input.username, email, mobile: input.mobile });
    const password = temporaryPassword();
    const id = newId();
    const now = this.clock.now();
    const knex = this.db.executor();
    try {
      await knex('users').insert({
        id,
        tenant_id: tenantId,
        org_id: input.orgId ?? null,
        username: input.username,
        nickname: input.nickname ?? null,
        email,
        mobile: input.mobile ?? null,
        password_hash: await this.hasher.hash(password),
        occupation: 'other',
        is_student: false,
        status: 'enabled',
        must_change_password: true,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('usernameRegistered');
      throw err;
    }
    await knex('user_roles').insert([...new Set(input.roleIds)].map((role_id) => ({ user_id: id, role_id })));
    return { userId: id, temporaryPassword: password };
  }

  /** Changes an account's profile, roles, organisation and (system admins) tenant. */
  async update(actor: AuthUser, input: UpdateUserRequest): Promise<void> {
    const knex = this.db.executor();
    const tenantId = await this.targetTenant(actor, input.tenantId);
    await this.roles.assertAssignable(actor, tenantId, input.roleIds);
    await this.assertOrg(tenantId, input.orgId);
    const email = input.email.toLowerCase();
    await this.assertFree({ email, mobile: input.mobile }, input.userId);
    const patch: Record<string, unknown> = { tenant_id: tenantId, email, updated_at: this.clock.now() };
    if (input.nickname !== undefined) patch.nickname = input.nickname;
    if (input.mobile !== undefined) patch.mobile = input.mobile;
    if (input.orgId !== undefined) patch.org_id = input.orgId;
    const before = await knex('users').where('id', input.userId).first('tenant_id');
    // Moving an account to another tenant: its organisation stays behind, its sessions end.
    if (before && before.tenant_id !== tenantId) {
      if (input.orgId === undefined) patch.org_id = null;
      await this.sessions.revokeAllOf(input.userId);
    }
    await knex('users').where('id', input.userId).update(patch);
    await knex('user_roles').where('user_id', input.userId).delete();
    await knex('user_roles').insert([...new Set(input.roleIds)].map((role_id) => ({ user_id: input.userId, role_id })));
  }

  /** Deletes an account that owns nothing (`deleteAccountFailed` otherwise); its sessions go with it. */
  async remove(userId: string): Promise<void> {
    const knex = this.db.executor();
    for (const o of OWNED) {
      if (await knex(o.table).where(o.column, userId).first(o.column)) throw new AppError('deleteAccountFailed');
    }
    try {
      await knex('user_roles').where('user_id', userId).delete();
      await knex('sessions').where('user_id', userId).delete();
      await knex('users').where('id', userId).delete();
    } catch (err) {
      // Another table still points at the account.
      const code = (err as { code?: string }).code;
      if (code === 'ER_ROW_IS_REFERENCED_2' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new AppError('deleteAccountFailed');
      throw err;
    }
  }

  /** A new temporary password that must be changed at the next sign-in; every session ends. */
  async resetPassword(userId: string): Promise<TemporaryPasswordResponse> {
    const password = temporaryPassword();
    await this.db.executor()('users').where('id', userId).update({ password_hash: await this.hasher.hash(password), must_change_password: true, updated_at: this.clock.now() });
    await this.sessions.revokeAllOf(userId);
    return { userId, temporaryPassword: password };
  }
}
