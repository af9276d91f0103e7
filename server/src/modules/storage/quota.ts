import type { Knex } from 'knex';
import { AppError, LIMITS } from '@decisio/domain';
import type { BlobOwner } from './blob-store';

/**
 * Storage quotas (spec platform §3 "Storage: remaining and total space", §5 "Storage expansion").
 * One row per user and one per tenant in `storage_quotas` (`scope` 'user' | 'tenant'); a blob
 * is charged to both. Rows are created on first use with the configured defaults. Charging is
 * one conditional `UPDATE ... WHERE used + n <= total` per row, so concurrent uploads can never
 * overshoot a quota, on SQLite and MariaDB alike.
 */

/** Quota given to a user / a tenant the first time it stores something, bytes. */
export interface QuotaDefaults {
  userBytes: number;
  tenantBytes: number;
}

/** Defaults when the server sets none: 10 GB per user, the 500 GB cap per tenant. */
export const DEFAULT_QUOTAS: QuotaDefaults = { userBytes: 10 * 1024 ** 3, tenantBytes: LIMITS.storageCapBytes };

let fallback: QuotaDefaults = { ...DEFAULT_QUOTAS };
/** Defaults per database (keyed by knex's config object, which its transactions share). */
const perDatabase = new WeakMap<object, QuotaDefaults>();

/**
 * Sets the defaults of rows created from now on (the server does this at start-up from its
 * config). With `knex`, only for that database (several servers in one process, as in tests).
 */
export function configureQuotaDefaults(next: QuotaDefaults, knex?: Knex): void {
  if (knex) perDatabase.set(knex.client.config as object, { ...next });
  else fallback = { ...next };
}

function defaultsOf(knex: Knex): QuotaDefaults {
  return perDatabase.get(knex.client.config as object) ?? fallback;
}

/** One quota: total and used bytes. */
export interface QuotaRow {
  scope: 'user' | 'tenant';
  ownerId: string;
  totalBytes: number;
  usedBytes: number;
}

async function ensureRow(knex: Knex, scope: 'user' | 'tenant', ownerId: string, tenantId: string): Promise<void> {
  const existing = await knex('storage_quotas').where({ scope, owner_id: ownerId }).first('owner_id');
  if (existing) return;
  await knex('storage_quotas')
    .insert({
      scope,
      owner_id: ownerId,
      tenant_id: tenantId,
      total_bytes: scope === 'user' ? defaultsOf(knex).userBytes : defaultsOf(knex).tenantBytes,
      used_bytes: 0,
      updated_at: new Date(),
    })
    .onConflict(['scope', 'owner_id'])
    .ignore();
}

/** The user's and the tenant's quota (rows are created when missing). */
export async function readQuotas(knex: Knex, owner: BlobOwner): Promise<{ user: QuotaRow; tenant: QuotaRow }> {
  await ensureRow(knex, 'user', owner.userId, owner.tenantId);
  await ensureRow(knex, 'tenant', owner.tenantId, owner.tenantId);
  const rows = (await knex('storage_quotas')
    .where((q) => q.where({ scope: 'user', owner_id: owner.userId }).orWhere({ scope: 'tenant', owner_id: owner.tenantId }))
    .select('scope', 'owner_id', 'total_bytes', 'used_bytes')) as {
    scope: 'user' | 'tenant';
    owner_id: string;
    total_bytes: number | string;
    used_bytes: number | string;
  }[];
  const of = (scope: 'user' | 'tenant'): QuotaRow => {
    const r = rows.find((x) => x.scope === scope)!;
    return { scope, ownerId: r.owner_id, totalBytes: Number(r.total_bytes), usedBytes: Number(r.used_bytes) };
  };
  return { user: of('user'), tenant: of('tenant') };
}

async function chargeRow(knex: Knex, scope: 'user' | 'tenant', ownerId: string, bytes: number): Promise<boolean> {
  const n = await knex('storage_quotas')
    .where({ scope, owner_id: ownerId })
    .andWhereRaw('used_bytes + ? <= total_bytes', [bytes])
    .update({ used_bytes: knex.raw('used_bytes + ?', [bytes]), updated_at: new Date() });
  return Number(n) > 0;
}

async function releaseRow(knex: Knex, scope: 'user' | 'tenant', ownerId: string, bytes: number): Promise<void> {
  await knex('storage_quotas')
    .where({ scope, owner_id: ownerId })
    .update({
      used_bytes: knex.raw('case when used_bytes > ? then used_bytes - ? else 0 end', [bytes, bytes]),
      updated_at: new Date(),
    });
}

/**
 * Charges `bytes` to the owner's user and tenant quota (inside the caller's transaction when
 * `knex` is one), or throws `AppError('storageInsufficient')` (the user's quota) or
 * `AppError('poolQuotaExceeded')` (the tenant's pool) and charges nothing.
 */
export async function chargeStorage(knex: Knex, owner: BlobOwner, bytes: number): Promise<void> {
  if (!Number.isFinite(bytes) || bytes < 0) throw new Error(`Invalid byte count ${bytes}`);
  if (bytes === 0) return;
  await ensureRow(knex, 'user', owner.userId, owner.tenantId);
  await ensureRow(knex, 'tenant', owner.tenantId, owner.tenantId);
  if (!(await chargeRow(knex, 'user', owner.userId, bytes))) throw new AppError('storageInsufficient');
  if (!(await chargeRow(knex, 'tenant', owner.tenantId, bytes))) {
    await releaseRow(knex, 'user', owner.userId, bytes);
    // The tenant's pool (set per tenant by its admins) is full: the spec's pool quota code.
    throw new AppError('poolQuotaExceeded');
  }
}

/** Gives `bytes` back to the owner's user and tenant quota (never below zero). */
export async function releaseStorage(knex: Knex, owner: BlobOwner, bytes: number): Promise<void> {
  if (!Number.isFinite(bytes) || bytes <= 0) return;
  await releaseRow(knex, 'user', owner.userId, bytes);
  await releaseRow(knex, 'tenant', owner.tenantId, bytes);
}

/**
 * Adds `bytes` to the user's total (spec: a number greater than 0, the total capped at 500 GB).
 * Throws `storageOutOfRange` when the new total would pass the cap.
 */
export async function addUserSpace(knex: Knex, owner: BlobOwner, bytes: number): Promise<void> {
  await ensureRow(knex, 'user', owner.userId, owner.tenantId);
  const n = await knex('storage_quotas')
    .where({ scope: 'user', owner_id: owner.userId })
    .andWhereRaw('total_bytes + ? <= ?', [bytes, LIMITS.storageCapBytes])
    .update({ total_bytes: knex.raw('total_bytes + ?', [bytes]), updated_at: new Date() });
  if (Number(n) === 0) throw new AppError('storageOutOfRange');
}
