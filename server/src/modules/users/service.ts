import { AppError, type Page, type UserFilter, type UserListRequest, type UserStatus } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { SessionService } from '../sessions/service';
import { UserModel } from './models';
import type { UserResource } from './policy';

/** User management within a tenant. */
export class UsersService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly sessions: SessionService,
  ) {}

  /** A page of the tenant's users, newest first, with their roles. */
  async list(tenantId: string, query: UserListRequest & UserFilter): Promise<Page<UserModel>> {
    const base = UserModel.query(this.db.executor()).modify('ofTenant', tenantId);
    if (query.status) base.where('users.status', query.status);
    if (query.orgId) base.where('users.org_id', query.orgId);
    if (query.roleId) base.whereRaw('users.id in (select user_id from user_roles where role_id = ?)', [query.roleId]);
    if (query.keyword) {
      // '!' as the LIKE escape character: a backslash means different things in MySQL and SQLite.
      const like = `%${query.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      base.where((q) =>
        q
          .whereRaw("lower(users.username) like ? escape '!'", [like])
          .orWhereRaw("lower(users.nickname) like ? escape '!'", [like])
          .orWhereRaw("lower(users.email) like ? escape '!'", [like])
          .orWhereRaw("users.mobile like ? escape '!'", [like]),
      );
    }
    const total = await base.clone().resultSize();
    const rows = await base
      .clone()
      .withGraphFetched('roles')
      .orderBy([{ column: 'users.created_at', order: 'desc' }, { column: 'users.id' }])
      .offset((query.page - 1) * query.pageSize)
      .limit(query.pageSize);
    return { rows, total, page: query.page, pageSize: query.pageSize };
  }

  /** The organisation and role a list filters by must be of `tenantId` (or shared): `orgNotFound` / `roleNotFound`. */
  async assertFilters(tenantId: string, query: UserFilter): Promise<void> {
    const knex = this.db.executor();
    if (query.orgId && !(await knex('organisations').where({ id: query.orgId, tenant_id: tenantId }).first('id'))) throw new AppError('orgNotFound');
    if (query.roleId && !(await knex('roles').where('id', query.roleId).where((w) => w.whereNull('tenant_id').orWhere('tenant_id', tenantId)).first('id'))) {
      throw new AppError('roleNotFound');
    }
  }

  /** The account a management call targets, or `undefined`. */
  async resource(userId: string): Promise<UserResource | undefined> {
    const user = await UserModel.query(this.db.executor()).findById(userId).withGraphFetched('roles');
    if (!user) return undefined;
    return { id: user.id, tenantId: user.tenantId, isSystemRole: (user.roles ?? []).some((r) => r.isSystem) };
  }

  /** Enables or disables an account; disabling also revokes its sessions. */
  async setStatus(userId: string, status: UserStatus): Promise<void> {
    await this.db.executor()('users').where('id', userId).update({ status, updated_at: this.clock.now() });
    if (status === 'disabled') await this.sessions.revokeAllOf(userId);
  }
}
