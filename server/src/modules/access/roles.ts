/**
 * Roles and their menu/permission matrix (`roles/*`). Roles are shared (`tenant_id` null: the
 * seeded ones and those a system admin makes shared) or belong to one tenant. Tenant admins see
 * and change their tenant's roles; shared roles change only by system admins; the system role
 * `admin` (every permission) never changes. Nobody grants a permission they do not hold.
 */
import { ALL_PERMISSIONS, AppError, PERMISSIONS, type Page, type RoleCreateRequest, type RoleItem, type RolePermissionRequest, type RoleUpdateRequest } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import type { AuthUser } from '../../http/context';
import { MenuModel, RoleModel } from './models';
import { grants } from './service';

/** A role as the screens see it. */
export function presentRole(r: RoleModel): RoleItem {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    tenantId: r.tenantId,
    isSystem: r.isSystem,
    permissions: [...(r.permissions ?? [])].sort(),
    sort: r.sort,
    createdAt: r.createdAt.toISOString(),
  };
}

/** Permissions a role may hold: the catalogue's. */
const KNOWN = new Set<string>(PERMISSIONS);

export class RolesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** Roles the caller may see: shared ones and their tenant's (system admins: every role). */
  private visible(actor: AuthUser) {
    const q = RoleModel.query(this.db.executor());
    if (!actor.isSystemRole) q.where((w) => w.whereNull('tenant_id').orWhere('tenant_id', actor.tenantId));
    return q;
  }

  /** All roles the caller sees, by sort then code. */
  async list(actor: AuthUser): Promise<RoleItem[]> {
    const rows = await this.visible(actor).orderBy([{ column: 'sort' }, { column: 'code' }]);
    return rows.map(presentRole);
  }

  /** A page of the roles the caller sees, filtered by code or name. */
  async page(actor: AuthUser, query: { page: number; pageSize: number; keyword?: string }): Promise<Page<RoleItem>> {
    const q = this.visible(actor);
    if (query.keyword) {
      const like = `%${query.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      q.where((w) => w.whereRaw("lower(code) like ? escape '!'", [like]).orWhereRaw("lower(name) like ? escape '!'", [like]));
    }
    const total = await q.clone().resultSize();
    const rows = await q.orderBy([{ column: 'sort' }, { column: 'code' }]).offset((query.page - 1) * query.pageSize).limit(query.pageSize);
    return { rows: rows.map(presentRole), total, page: query.page, pageSize: query.pageSize };
  }

  /** A role the caller sees, or `roleNotFound`. */
  async get(actor: AuthUser, id: string): Promise<RoleModel> {
    const role = await this.visible(actor).findById(id);
    if (!role) throw new AppError('roleNotFound');
    return role;
  }

  /** A role the caller may change: not `admin`; shared ones only for system admins. */
  private async writable(actor: AuthUser, id: string): Promise<RoleModel> {
    const role = await this.get(actor, id);
    if (role.isSystem || (role.tenantId === null && !actor.isSystemRole)) throw new AppError('authorizationFailed');
    return role;
  }

  /**
   * Creates a role: in the caller's tenant, or (system admins) shared (`tenantId: null`) or in
   * the tenant they name. Its permissions start empty (`roles/permission` sets them).
   */
  async create(actor: AuthUser, input: RoleCreateRequest & { tenantId?: string | null }): Promise<RoleItem> {
    let tenantId: string | null = actor.tenantId;
    if (actor.isSystemRole) tenantId = input.tenantId === undefined ? null : input.tenantId;
    else if (input.tenantId !== undefined && input.tenantId !== actor.tenantId) throw new AppError('authorizationFailed');
    if (tenantId && !(await this.db.executor()('tenants').where('id', tenantId).first('id'))) throw new AppError('tenantNotExists');
    await this.assertCodeFree(input.code, tenantId);
    const now = this.clock.now();
    const id = newId();
    try {
      await this.db.executor()('roles').insert({ id, tenant_id: tenantId, code: input.code, name: input.name, is_system: false, permissions: JSON.stringify([]), sort: input.sort, created_at: now, updated_at: now });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('codeUsed');
      throw err;
    }
    return presentRole((await RoleModel.query(this.db.executor()).findById(id))!);
  }

  /** Codes are unique among the shared roles and the roles of one tenant together. */
  private async assertCodeFree(code: string, tenantId: string | null, exceptId?: string): Promise<void> {
    const q = this.db.executor()('roles').whereRaw('lower(code) = ?', [code.toLowerCase()]);
    if (tenantId) q.where((w) => w.whereNull('tenant_id').orWhere('tenant_id', tenantId));
    if (exceptId) q.whereNot('id', exceptId);
    if (await q.first('id')) throw new AppError('codeUsed');
  }

  async update(actor: AuthUser, id: string, input: RoleUpdateRequest): Promise<RoleItem> {
    const role = await this.writable(actor, id);
    if (input.code !== undefined) await this.assertCodeFree(input.code, role.tenantId, id);
    const patch: Record<string, unknown> = { updated_at: this.clock.now() };
    if (input.code !== undefined) patch.code = input.code;
    if (input.name !== undefined) patch.name = input.name;
    if (input.sort !== undefined) patch.sort = input.sort;
    await this.db.executor()('roles').where('id', id).update(patch);
    return presentRole((await RoleModel.query(this.db.executor()).findById(id))!);
  }

  /** Deletes a role no user holds (`roleInUse` otherwise); seeded roles stay. */
  async remove(actor: AuthUser, id: string): Promise<void> {
    const role = await this.writable(actor, id);
    if (['admin', 'user', 'tenant-admin'].includes(role.code) && role.tenantId === null) throw new AppError('authorizationFailed');
    if (await this.db.executor()('user_roles').where('role_id', id).first('user_id')) throw new AppError('roleInUse');
    await this.db.executor()('role_menus').where('role_id', id).delete();
    await this.db.executor()('roles').where('id', id).delete();
  }

  /** Menu ids and permissions of a role (`GET roles/menuIds/{id}`). */
  async menuIds(actor: AuthUser, id: string): Promise<{ roleId: string; menuIds: string[]; permissions: string[] }> {
    const role = await this.get(actor, id);
    const rows = (await this.db.executor()('role_menus').where('role_id', id).select('menu_id')) as { menu_id: string }[];
    return { roleId: id, menuIds: rows.map((r) => r.menu_id).sort(), permissions: [...role.permissions].sort() };
  }

  /**
   * Sets the menus of a role and its permissions: `permissions` plus those of the menus and of
   * their ancestors. Refuses a permission the caller does not hold (`authorizationFailed`) and
   * an unknown one or menu (`paramInvalid` / `menuNotFound`).
   */
  async setPermission(actor: AuthUser, input: RolePermissionRequest): Promise<{ roleId: string; menuIds: string[]; permissions: string[] }> {
    await this.writable(actor, input.roleId);
    const all = await MenuModel.query(this.db.executor());
    const byId = new Map(all.map((m) => [m.id, m]));
    const chosen = new Set<string>();
    for (const id of new Set(input.menuIds)) {
      if (!byId.has(id)) throw new AppError('menuNotFound');
      // A page needs its group to show in the tree.
      for (let m = byId.get(id); m && !chosen.has(m.id); m = m.parentId ? byId.get(m.parentId) : undefined) chosen.add(m.id);
    }
    const permissions = new Set<string>(input.permissions);
    for (const id of chosen) {
      const p = byId.get(id)!.permission;
      if (p) permissions.add(p);
    }
    for (const p of permissions) {
      if (p === ALL_PERMISSIONS || !KNOWN.has(p)) throw new AppError('paramInvalid', { permissions: 'validation.invalid' });
      if (!grants(actor.permissions, p)) throw new AppError('authorizationFailed');
    }
    const list = [...permissions].sort();
    const knex = this.db.executor();
    await knex('role_menus').where('role_id', input.roleId).delete();
    if (chosen.size > 0) await knex('role_menus').insert([...chosen].map((menu_id) => ({ role_id: input.roleId, menu_id })));
    await knex('roles').where('id', input.roleId).update({ permissions: JSON.stringify(list), updated_at: this.clock.now() });
    return { roleId: input.roleId, menuIds: [...chosen].sort(), permissions: list };
  }

  /**
   * Checks roles an admin gives to an account of `tenantId`: each exists and is shared or of that
   * tenant (`roleNotFound`); a system role only from a system admin, and only permissions the
   * actor holds (`authorizationFailed`).
   */
  async assertAssignable(actor: AuthUser, tenantId: string, roleIds: readonly string[]): Promise<void> {
    const ids = [...new Set(roleIds)];
    const roles = await RoleModel.query(this.db.executor()).findByIds(ids);
    if (roles.length !== ids.length) throw new AppError('roleNotFound');
    for (const r of roles) {
      if (r.tenantId !== null && r.tenantId !== tenantId) throw new AppError('roleNotFound');
      if (actor.isSystemRole) continue;
      if (r.isSystem || !(r.permissions ?? []).every((p) => grants(actor.permissions, p))) throw new AppError('authorizationFailed');
    }
  }
}
