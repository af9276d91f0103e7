/**
 * The console menu catalogue (`menus/*`): one tree shared by every tenant. Roles link to menus
 * (`role_menus`); `user/getUser` answers the tree a user's roles allow, which the side menu shows.
 */
import { AppError, type MenuCreateRequest, type MenuItem, type MenuUpdateRequest, type Page } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { newId } from '../../db/ids';
import { MenuModel } from './models';

function present(m: MenuModel): MenuItem {
  return { id: m.id, parentId: m.parentId, code: m.code, name: m.name, path: m.path, icon: m.icon, sort: m.sort, permission: m.permission, type: m.type, hidden: m.hidden };
}

/** Builds the tree of `rows` (children by sort then code). */
export function menuTree(rows: readonly MenuModel[]): MenuItem[] {
  const nodes = new Map(rows.map((m) => [m.id, { ...present(m), children: [] as MenuItem[] }]));
  const roots: MenuItem[] = [];
  for (const m of rows) {
    const node = nodes.get(m.id)!;
    const parent = m.parentId ? nodes.get(m.parentId) : undefined;
    if (parent) parent.children!.push(node);
    else roots.push(node);
  }
  return roots;
}

export class MenusService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private async all(): Promise<MenuModel[]> {
    return await MenuModel.query(this.db.executor()).orderBy([{ column: 'sort' }, { column: 'code' }]);
  }

  /** Every menu, flat, by sort. */
  async list(): Promise<MenuItem[]> {
    return (await this.all()).map(present);
  }

  /** The whole tree. */
  async tree(): Promise<MenuItem[]> {
    return menuTree(await this.all());
  }

  /** A page of top-level menus (with their subtrees) whose subtree matches `keyword` (code or name). */
  async treePage(query: { page: number; pageSize: number; keyword?: string }): Promise<Page<MenuItem>> {
    let roots = menuTree(await this.all());
    const k = query.keyword?.toLowerCase();
    if (k) {
      const hit = (n: MenuItem): boolean => n.code.toLowerCase().includes(k) || n.name.toLowerCase().includes(k) || (n.children ?? []).some(hit);
      roots = roots.filter(hit);
    }
    const start = (query.page - 1) * query.pageSize;
    return { rows: roots.slice(start, start + query.pageSize), total: roots.length, page: query.page, pageSize: query.pageSize };
  }

  async get(id: string): Promise<MenuModel> {
    const m = await MenuModel.query(this.db.executor()).findById(id);
    if (!m) throw new AppError('menuNotFound');
    return m;
  }

  /** The parent must exist and must not be the menu itself or one of its descendants. */
  private async assertParent(parentId: string | null, selfId?: string): Promise<void> {
    if (parentId === null) return;
    const all = await this.all();
    const byId = new Map(all.map((m) => [m.id, m]));
    if (!byId.has(parentId)) throw new AppError('menuNotFound');
    for (let m = byId.get(parentId); m; m = m.parentId ? byId.get(m.parentId) : undefined) {
      if (m.id === selfId) throw new AppError('paramInvalid', { parentId: 'validation.invalid' });
    }
  }

  async create(input: MenuCreateRequest): Promise<MenuItem> {
    await this.assertParent(input.parentId);
    const now = this.clock.now();
    const id = newId();
    try {
      await this.db.executor()('menus').insert({
        id,
        parent_id: input.parentId,
        code: input.code,
        name: input.name,
        path: input.path,
        icon: input.icon,
        sort: input.sort,
        permission: input.permission,
        type: input.path === null ? 'group' : 'page',
        hidden: input.hidden,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('codeUsed');
      throw err;
    }
    return present(await this.get(id));
  }

  async update(id: string, input: MenuUpdateRequest): Promise<MenuItem> {
    await this.get(id);
    if (input.parentId !== undefined) await this.assertParent(input.parentId, id);
    const patch: Record<string, unknown> = { updated_at: this.clock.now() };
    if (input.parentId !== undefined) patch.parent_id = input.parentId;
    if (input.name !== undefined) patch.name = input.name;
    if (input.path !== undefined) {
      patch.path = input.path;
      patch.type = input.path === null ? 'group' : 'page';
    }
    if (input.icon !== undefined) patch.icon = input.icon;
    if (input.sort !== undefined) patch.sort = input.sort;
    if (input.permission !== undefined) patch.permission = input.permission;
    if (input.hidden !== undefined) patch.hidden = input.hidden;
    await this.db.executor()('menus').where('id', id).update(patch);
    return present(await this.get(id));
  }

  /** Deletes a menu without sub-menus (`menuHasChildren`); its role links go with it. */
  async remove(id: string): Promise<void> {
    await this.get(id);
    if (await this.db.executor()('menus').where('parent_id', id).first('id')) throw new AppError('menuHasChildren');
    await this.db.executor()('role_menus').where('menu_id', id).delete();
    await this.db.executor()('menus').where('id', id).delete();
  }
}
