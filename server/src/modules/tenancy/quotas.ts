/**
 * Tenant quotas of running work (the storage quota lives in `storage_quotas`): trainings running
 * at once (`tenants.max_trainings`, jobs of the modelling trainings and deductions in a live
 * state; `resourceQuotaExceeded`) and model services running (`tenants.max_services`;
 * `platformQuotaExceeded`). `null` is no limit.
 */
import { AppError, MODELLING_JOB_KINDS } from '@decisio/domain';
import type { Knex } from 'knex';

/** Job kinds that count as trainings: every modelling job but a scheme's data processing. */
export const TRAINING_JOB_KINDS: readonly string[] = Object.values(MODELLING_JOB_KINDS).filter((k) => k !== MODELLING_JOB_KINDS.scheme);

const LIVE_JOB_STATES = ['waiting', 'processing', 'restoring', 'stopping', 'debugging'];
const LIVE_SERVICE_STATES = ['starting', 'running'];

async function limitOf(knex: Knex, tenantId: string, column: 'max_trainings' | 'max_services'): Promise<number | null> {
  const row = (await knex('tenants').where('id', tenantId).first(column)) as Record<string, unknown> | undefined;
  const v = row?.[column];
  return v === null || v === undefined ? null : Number(v);
}

/** Before a training job of `kind` is queued for `tenantId`: `resourceQuotaExceeded` when the tenant runs its maximum. */
export async function assertTrainingQuota(knex: Knex, tenantId: string, kind: string): Promise<void> {
  if (!TRAINING_JOB_KINDS.includes(kind)) return;
  const max = await limitOf(knex, tenantId, 'max_trainings');
  if (max === null) return;
  const row = (await knex('jobs').where('tenant_id', tenantId).whereIn('kind', TRAINING_JOB_KINDS).whereIn('state', LIVE_JOB_STATES).count({ n: '*' }).first()) as { n: number | string };
  if (Number(row.n) >= max) throw new AppError('resourceQuotaExceeded');
}

/** Before a model service of `tenantId` starts: `platformQuotaExceeded` when the tenant runs its maximum. */
export async function assertServiceQuota(knex: Knex, tenantId: string): Promise<void> {
  const max = await limitOf(knex, tenantId, 'max_services');
  if (max === null) return;
  const row = (await knex('model_services').where('tenant_id', tenantId).whereNull('deleted_at').whereIn('status', LIVE_SERVICE_STATES).count({ n: '*' }).first()) as { n: number | string };
  if (Number(row.n) >= max) throw new AppError('platformQuotaExceeded');
}
