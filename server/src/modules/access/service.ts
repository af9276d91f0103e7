import { ALL_PERMISSIONS, type MenuNode } from '@decisio/domain';
import type { Database } from '../../db/database';
import { MenuModel, RoleModel } from './models';

/** True when `permissions` grant `permission` (directly or through `'*'`). */
export function grants(permissions: readonly string[], permission: string): boolean {
  return permissions.includes(ALL_PERMISSIONS) || permissions.includes(permission);
}

/** Roles, permissions and visible menus of users. */
export class AccessService {
  constructor(private readonly db: Database) {}

  /** Roles of a user, system roles first. */
  async rolesOf(userId: string): Promise<RoleModel[]> {
    return RoleModel.query(this.db.executor())
      .join('user_roles', 'user_roles.role_id', 'roles.id')
      .where('user_roles.user_id', userId)
      .select('roles.*')
      .orderBy([{ column: 'roles.sort' }, { column: 'roles.code' }]);
  }

  /** Role by code among the roles every tenant shares. */
  async systemRole(code: string): Promise<RoleModel | undefined> {
    return RoleModel.query(this.db.executor()).whereNull('tenant_id').where('code', code).first();
  }

  /** Paths of every page of the menu catalogue: the side-menu entries that roles decide. */
  async menuPaths(): Promise<string[]> {
    const rows = (await this.db.executor()('menus').whereNotNull('path').select('path')) as { path: string }[];
    return rows.map((r) => r.path).sort();
  }

  /** Union of the permissions of `roles`, sorted. */
  permissionsOf(roles: readonly { readonly permissions: readonly string[] }[]): string[] {
    return [...new Set(roles.flatMap((r) => r.permissions ?? []))].sort();
  }

  /**
   * The menu tree `roles` may see: menus linked to one of the roles (`role_menus`) whose
   * permission, when set, is granted; a group is kept only if it keeps a child or has a path.
   */
  async menuTreeFor(roles: readonly RoleModel[], permissions: readonly string[]): Promise<MenuNode[]> {
    if (roles.length === 0) return [];
    const rows = await MenuModel.query(this.db.executor())
      .whereIn(
        'id',
        this.db.executor()('role_menus').whereIn('role_id', roles.map((r) => r.id)).select('menu_id'),
      )
      .where('hidden', false)
      .orderBy([{ column: 'sort' }, { column: 'code' }]);
    const visible = rows.filter((m) => m.permission === null || grants(permissions, m.permission));
    const nodes = new Map<string, MenuNode>();
    for (const m of visible) {
      nodes.set(m.id, {
        id: m.id,
        code: m.code,
        name: m.name,
        path: m.path,
        icon: m.icon,
        sort: m.sort,
        permission: m.permission,
        children: [],
      });
    }
    const roots: MenuNode[] = [];
    for (const m of visible) {
      const node = nodes.get(m.id)!;
      const parent = m.parentId ? nodes.get(m.parentId) : undefined;
      if (parent) parent.children.push(node);
      else if (!m.parentId) roots.push(node);
    }
    const prune = (list: MenuNode[]): MenuNode[] =>
      list
        .map((n) => ({ ...n, children: prune(n.children) }))
        .filter((n) => n.path !== null || n.children.length > 0);
    return prune(roots);
  }
}
