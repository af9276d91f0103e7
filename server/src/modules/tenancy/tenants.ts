/**
 * Tenants (`tenant/*`): system admins create, edit and delete them and see them all; anyone else
 * with `tenants:read` (tenant admins) sees only their own. A tenant that still holds users,
 * projects, files or data connections is not deleted (`tenantHasData`). Quotas: storage (the
 * tenant row of `storage_quotas`), running trainings and running model services.
 */
import { randomBytes } from 'node:crypto';
import { AppError, LIMITS, type Page, type TenantCreateRequest, type TenantItem, type TenantUpdateRequest } from '@decisio/domain';
import type { Knex } from 'knex';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import { DEFAULT_TENANT_ID, newId } from '../../db/ids';
import type { AuthUser } from '../../http/context';

interface TenantRow {
  id: string;
  code: string;
  name: string;
  status: 'enabled' | 'disabled';
  domain: string | null;
  invite_code: string | null;
  max_trainings: number | null;
  max_services: number | null;
  created_at: unknown;
}

function dateOf(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v))) return new Date(Number(v));
  const s = String(v);
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z');
}

/** A fresh invitation code (sign-up link `?invite=<code>`). */
function inviteCode(): string {
  return randomBytes(12).toString('base64url');
}

/** Tables whose rows mean a tenant still holds data (deleted rows not counted where marked). */
const HOLDINGS: { table: string; live?: string }[] = [
  { table: 'users' },
  { table: 'projects' },
  { table: 'storage_files', live: 'deleted_at' },
  { table: 'data_connections' },
];

export class TenantsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private async present(knex: Knex, rows: TenantRow[]): Promise<TenantItem[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const counts = (await knex('users').whereIn('tenant_id', ids).groupBy('tenant_id').select('tenant_id').count({ n: '*' })) as { tenant_id: string; n: number | string }[];
    const quotas = (await knex('storage_quotas').where('scope', 'tenant').whereIn('owner_id', ids).select('owner_id', 'total_bytes')) as { owner_id: string; total_bytes: number | string }[];
    const users = new Map(counts.map((c) => [c.tenant_id, Number(c.n)]));
    const storage = new Map(quotas.map((q) => [q.owner_id, Number(q.total_bytes)]));
    return rows.map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      status: r.status,
      domain: r.domain,
      inviteCode: r.invite_code,
      storageQuotaBytes: storage.get(r.id) ?? null,
      maxTrainings: r.max_trainings === null ? null : Number(r.max_trainings),
      maxServices: r.max_services === null ? null : Number(r.max_services),
      userCount: users.get(r.id) ?? 0,
      createdAt: dateOf(r.created_at).toISOString(),
    }));
  }

  /** Tenants the caller sees: all for system admins, their own otherwise. */
  private visible(actor: AuthUser) {
    const q = this.db.executor()<TenantRow>('tenants');
    if (!actor.isSystemRole) q.where('id', actor.tenantId);
    return q;
  }

  async list(actor: AuthUser): Promise<TenantItem[]> {
    const rows = (await this.visible(actor).orderBy([{ column: 'created_at' }, { column: 'code' }]).select('*')) as TenantRow[];
    return this.present(this.db.executor(), rows);
  }

  async page(actor: AuthUser, query: { page: number; pageSize: number; keyword?: string }): Promise<Page<TenantItem>> {
    const q = this.visible(actor);
    if (query.keyword) {
      const like = `%${query.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      q.where((w) => w.whereRaw("lower(code) like ? escape '!'", [like]).orWhereRaw("lower(name) like ? escape '!'", [like]));
    }
    const total = Number(((await q.clone().count({ n: '*' }).first()) as { n: number | string } | undefined)?.n ?? 0);
    const rows = (await q.orderBy([{ column: 'created_at' }, { column: 'code' }]).offset((query.page - 1) * query.pageSize).limit(query.pageSize).select('*')) as TenantRow[];
    return { rows: await this.present(this.db.executor(), rows), total, page: query.page, pageSize: query.pageSize };
  }

  /** A tenant the caller sees, or `tenantNotExists`. */
  async get(actor: AuthUser, id: string): Promise<TenantItem> {
    const row = (await this.visible(actor).where('id', id).first()) as TenantRow | undefined;
    if (!row) throw new AppError('tenantNotExists');
    return (await this.present(this.db.executor(), [row]))[0]!;
  }

  private async setStorageQuota(knex: Knex, tenantId: string, quota: number | null): Promise<void> {
    let bytes = quota;
    // No quota of its own: the platform cap (the row keeps what the tenant uses).
    if (bytes === null) bytes = LIMITS.storageCapBytes;
    const existing = await knex('storage_quotas').where({ scope: 'tenant', owner_id: tenantId }).first('owner_id');
    if (existing) await knex('storage_quotas').where({ scope: 'tenant', owner_id: tenantId }).update({ total_bytes: bytes, updated_at: this.clock.now() });
    else await knex('storage_quotas').insert({ scope: 'tenant', owner_id: tenantId, tenant_id: tenantId, total_bytes: bytes, used_bytes: 0, updated_at: this.clock.now() });
  }

  /** Creates a tenant with an invitation code (system admins). */
  async create(input: TenantCreateRequest): Promise<TenantItem> {
    const knex = this.db.executor();
    if (await knex('tenants').whereRaw('lower(code) = ?', [input.code.toLowerCase()]).first('id')) throw new AppError('tenantCodeUsed');
    if (input.domain && (await knex('tenants').where('domain', input.domain).first('id'))) throw new AppError('nameUsed', { domain: 'validation.invalid' });
    const now = this.clock.now();
    const id = newId();
    try {
      await knex('tenants').insert({
        id,
        code: input.code,
        name: input.name,
        status: input.status,
        domain: input.domain,
        invite_code: inviteCode(),
        max_trainings: input.maxTrainings,
        max_services: input.maxServices,
        created_at: now,
        updated_at: now,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('tenantCodeUsed');
      throw err;
    }
    if (input.storageQuotaBytes !== null) await this.setStorageQuota(knex, id, input.storageQuotaBytes);
    const row = (await knex('tenants').where('id', id).first()) as TenantRow;
    return (await this.present(knex, [row]))[0]!;
  }

  /** Edits a tenant (system admins). The default tenant cannot be disabled. */
  async update(actor: AuthUser, input: TenantUpdateRequest): Promise<TenantItem> {
    await this.get(actor, input.id);
    const knex = this.db.executor();
    if (input.status === 'disabled' && input.id === DEFAULT_TENANT_ID) throw new AppError('authorizationFailed');
    if (input.domain && (await knex('tenants').where('domain', input.domain).whereNot('id', input.id).first('id'))) throw new AppError('nameUsed', { domain: 'validation.invalid' });
    const patch: Record<string, unknown> = { updated_at: this.clock.now() };
    if (input.name !== undefined) patch.name = input.name;
    if (input.domain !== undefined) patch.domain = input.domain;
    if (input.status !== undefined) patch.status = input.status;
    if (input.maxTrainings !== undefined) patch.max_trainings = input.maxTrainings;
    if (input.maxServices !== undefined) patch.max_services = input.maxServices;
    if (input.renewInvite) patch.invite_code = inviteCode();
    await knex('tenants').where('id', input.id).update(patch);
    if (input.storageQuotaBytes !== undefined) await this.setStorageQuota(knex, input.id, input.storageQuotaBytes);
    return this.get(actor, input.id);
  }

  /**
   * Deletes an empty tenant (system admins): `tenantHasData` while it holds anything (the reason
   * the default tenant and the caller's own, which holds the caller, are refused with); never the
   * default one, even empty (`authorizationFailed`).
   */
  async remove(actor: AuthUser, id: string): Promise<void> {
    await this.get(actor, id);
    const knex = this.db.executor();
    for (const h of HOLDINGS) {
      const q = knex(h.table).where('tenant_id', id);
      if (h.live) q.whereNull(h.live);
      if (await q.first('tenant_id')) throw new AppError('tenantHasData');
    }
    if (id === DEFAULT_TENANT_ID || id === actor.tenantId) throw new AppError('authorizationFailed');
    await knex('storage_quotas').where('tenant_id', id).delete();
    await knex('role_menus').whereIn('role_id', knex('roles').where('tenant_id', id).select('id')).delete();
    await knex('roles').where('tenant_id', id).delete();
    await knex('organisations').where('tenant_id', id).delete();
    await knex('tenants').where('id', id).delete();
  }
}
