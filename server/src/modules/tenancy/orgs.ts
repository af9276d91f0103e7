/**
 * Organisations of a tenant (`orgs/*`): a tree per tenant. Users belong to at most one
 * (`users.org_id`); project collaboration and share links name them. Ids of another tenant's
 * organisations answer `orgNotFound`.
 */
import { AppError, type OrgCreateRequest, type OrgItem, type OrgUpdateRequest } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { AuthUser } from '../../http/context';
import { OrganisationModel } from './models';

/** The tenant an organisation call acts in: the caller's, or (system admins) the one they name. */
export function orgTenantOf(actor: AuthUser, tenantId: string | undefined): string {
  if (!tenantId || tenantId === actor.tenantId) return actor.tenantId;
  if (!actor.isSystemRole) throw new AppError('authorizationFailed');
  return tenantId;
}

export class OrgsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  /** The tenant's organisations, flat, by sort then name, with their direct member counts. */
  async list(tenantId: string): Promise<OrgItem[]> {
    const knex = this.db.executor();
    const rows = await OrganisationModel.query(knex).modify('ofTenant', tenantId).orderBy([{ column: 'sort' }, { column: 'name' }]);
    const counts = (await knex('users').where('tenant_id', tenantId).whereNotNull('org_id').groupBy('org_id').select('org_id').count({ n: '*' })) as { org_id: string; n: number | string }[];
    const byOrg = new Map(counts.map((c) => [c.org_id, Number(c.n)]));
    return rows.map((o) => ({ id: o.id, tenantId: o.tenantId, parentId: o.parentId, name: o.name, sort: o.sort, userCount: byOrg.get(o.id) ?? 0 }));
  }

  async tree(tenantId: string): Promise<OrgItem[]> {
    const flat = await this.list(tenantId);
    const nodes = new Map(flat.map((o) => [o.id, { ...o, children: [] as OrgItem[] }]));
    const roots: OrgItem[] = [];
    for (const o of flat) {
      const parent = o.parentId ? nodes.get(o.parentId) : undefined;
      if (parent) parent.children!.push(nodes.get(o.id)!);
      else roots.push(nodes.get(o.id)!);
    }
    return roots;
  }

  /**
   * An organisation the caller may act on: of their tenant, or any for system admins
   * (`orgNotFound` otherwise, so ids of other tenants stay hidden).
   */
  async get(actor: AuthUser, id: string): Promise<OrganisationModel> {
    const org = await OrganisationModel.query(this.db.executor()).findById(id);
    if (!org || (org.tenantId !== actor.tenantId && !actor.isSystemRole)) throw new AppError('orgNotFound');
    return org;
  }

  /** The parent must be of the same tenant and not the organisation itself or below it. */
  private async assertParent(tenantId: string, parentId: string | null, selfId?: string): Promise<void> {
    if (parentId === null) return;
    const all = await OrganisationModel.query(this.db.executor()).modify('ofTenant', tenantId);
    const byId = new Map(all.map((o) => [o.id, o]));
    if (!byId.has(parentId)) throw new AppError('orgNotFound');
    for (let o = byId.get(parentId); o; o = o.parentId ? byId.get(o.parentId) : undefined) {
      if (o.id === selfId) throw new AppError('paramInvalid', { parentId: 'validation.invalid' });
    }
  }

  async create(actor: AuthUser, input: OrgCreateRequest): Promise<OrgItem> {
    const tenantId = orgTenantOf(actor, input.tenantId);
    if (!(await this.db.executor()('tenants').where('id', tenantId).first('id'))) throw new AppError('tenantNotExists');
    await this.assertParent(tenantId, input.parentId);
    const now = this.clock.now();
    const id = newId();
    await this.db.executor()('organisations').insert({ id, tenant_id: tenantId, parent_id: input.parentId, name: input.name, sort: input.sort, created_at: now, updated_at: now });
    return { id, tenantId, parentId: input.parentId, name: input.name, sort: input.sort, userCount: 0 };
  }

  async update(actor: AuthUser, id: string, input: OrgUpdateRequest): Promise<OrgItem> {
    const org = await this.get(actor, id);
    if (input.parentId !== undefined) await this.assertParent(org.tenantId, input.parentId, id);
    const patch: Record<string, unknown> = { updated_at: this.clock.now() };
    if (input.parentId !== undefined) patch.parent_id = input.parentId;
    if (input.name !== undefined) patch.name = input.name;
    if (input.sort !== undefined) patch.sort = input.sort;
    await this.db.executor()('organisations').where('id', id).update(patch);
    return (await this.list(org.tenantId)).find((o) => o.id === id)!;
  }

  /** Deletes an organisation without sub-organisations or members (`orgHasMembers`). */
  async remove(actor: AuthUser, id: string): Promise<void> {
    await this.get(actor, id);
    const knex = this.db.executor();
    if ((await knex('organisations').where('parent_id', id).first('id')) || (await knex('users').where('org_id', id).first('id'))) {
      throw new AppError('orgHasMembers');
    }
    await knex('organisations').where('id', id).delete();
  }
}
