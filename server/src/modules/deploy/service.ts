/**
 * Model services (spec workflow §3-§5, §7 `modeldeploy/*`): create (deploying -> waiting to
 * start, or failure), start (starting -> running, or failure), stop (-> waiting), update, delete
 * (waiting or failed only), token rotation, pages of services and call records, the monitor.
 * Transitions that load a policy run in the background after the call's transaction commits;
 * `settle()` waits for them (tests, shutdown).
 */
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AppError,
  DEPLOY_LIMITS,
  type ModelServiceStatus,
  type MonitorUnit,
  type Page,
  modelServiceCreateSchema,
  modelServiceMonitorSchema,
  modelServicePageSchema,
  modelServiceRecordDeleteSchema,
  modelServiceRecordsDatasetSchema,
  modelServiceRecordsPageSchema,
  modelServiceRotateTokenSchema,
  modelServiceUpdateSchema,
} from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { Logger } from '../../logger';
import { ingestCsv } from '../datasets/ingest';
import type { DatasetsService } from '../datasets/service';
import { assertProjectAccess, type ProjectRight } from '../projects/access';
import type { ServingIO } from './io';
import { recordsTable, toCsv } from './records-table';
import { findPolicy } from './policy-source';
import { newAccessToken, type ServingRuntime } from './runtime';
import { assertServiceQuota } from '../tenancy/quotas';

/** A `model_services` row with the policy name. */
export interface ServiceRecord {
  id: string;
  tenantId: string;
  projectId: string;
  solutionId: string;
  policyId: string;
  policyName: string | null;
  name: string;
  description: string;
  status: ModelServiceStatus;
  failureReason: string | null;
  tokenHint: string;
  /** When the access token stops working; null: never. */
  tokenExpiresAt: Date | null;
  keepPayloads: boolean;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

/** One call record row. */
export interface CallRecord {
  id: string;
  startedAt: Date;
  endedAt: Date | null;
  durationMs: number | null;
  ip: string | null;
  result: 'success' | 'failure' | 'running';
  rows: number;
  errorCode: number | null;
  inputs: unknown;
  decisions: unknown;
  outcome: unknown;
  outcomeAt: Date | null;
}

const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : (v as string | number)));

function serviceOf(r: Record<string, unknown>): ServiceRecord {
  return {
    id: String(r.id),
    tenantId: String(r.tenant_id),
    projectId: String(r.project_id),
    solutionId: String(r.solution_id),
    policyId: String(r.policy_id),
    policyName: (r.policy_name as string | null | undefined) ?? null,
    name: String(r.name),
    description: String(r.description ?? ''),
    status: r.status as ModelServiceStatus,
    failureReason: (r.failure_reason as string | null) ?? null,
    tokenHint: String(r.token_hint),
    tokenExpiresAt: r.token_expires_at === null || r.token_expires_at === undefined ? null : toDate(r.token_expires_at),
    keepPayloads: Boolean(Number(r.keep_payloads ?? 1)),
    createdBy: String(r.created_by),
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

function parseJson(v: unknown): unknown {
  if (typeof v !== 'string' || v === '') return null;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return null;
  }
}

function reasonOf(err: unknown): string {
  const text = err instanceof AppError ? err.codeName : err instanceof Error ? err.message : String(err);
  return text.slice(0, 500);
}

const isUniqueViolation = (err: unknown) => /unique|duplicate/i.test(err instanceof Error ? err.message : String(err));

const nameKey = (projectId: string, name: string) => `${projectId}:${name.toLowerCase()}`;

/** Bucket layout of a monitor period. */
function monitorWindow(unit: MonitorUnit, end: number): { start: number; size: number; count: number; months?: number[] } {
  const H = 3600_000;
  const D = 24 * H;
  if (unit === 'day') {
    const stop = Math.floor(end / H) * H + H;
    return { start: stop - 24 * H, size: H, count: 24 };
  }
  if (unit === 'week' || unit === 'month') {
    const n = unit === 'week' ? 7 : 30;
    const stop = Math.floor(end / D) * D + D;
    return { start: stop - n * D, size: D, count: n };
  }
  const e = new Date(end);
  const months: number[] = [];
  for (let i = 11; i >= -1; i--) months.push(Date.UTC(e.getUTCFullYear(), e.getUTCMonth() - i, 1));
  return { start: months[0]!, size: D, count: Math.round((months[12]! - months[0]!) / D), months };
}

/** The management side of model services. */
export class DeployService {
  private readonly tasks = new Set<Promise<void>>();

  constructor(
    private readonly db: Database,
    private readonly runtime: ServingRuntime,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Resolves when every background transition started so far has finished. */
  async settle(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private background(fn: () => Promise<void>): void {
    const p = fn().catch((err: unknown) => this.logger.error('model service transition failed', { err }));
    this.tasks.add(p);
    void p.finally(() => this.tasks.delete(p));
  }

  private query() {
    return this.db
      .executor()('model_services as s')
      .leftJoin('policies as p', 'p.id', 's.policy_id')
      .select('s.*', 'p.name as policy_name');
  }

  /** A service of the tenant as it is now (no rights checked), or null when it is missing or deleted. */
  async byId(serviceId: string, tenantId: string): Promise<ServiceRecord | null> {
    const row = (await this.query().where('s.id', serviceId).andWhere('s.tenant_id', tenantId).whereNull('s.deleted_at').first()) as Record<string, unknown> | undefined;
    return row ? serviceOf(row) : null;
  }

  /**
   * The service of the caller's tenant with the caller's right on its project checked.
   * @throws AppError `deployNotFound`, `deployDeleted`, `projectNotFound`, `projectNoRight`.
   */
  async access(user: ServerCallUser, serviceId: string, need: ProjectRight): Promise<ServiceRecord> {
    const row = (await this.query().where('s.id', serviceId).andWhere('s.tenant_id', user.tenantId).first()) as Record<string, unknown> | undefined;
    if (!row) throw new AppError('deployNotFound');
    await assertProjectAccess(this.db.executor(), user, String(row.project_id), need);
    if (row.deleted_at) throw new AppError('deployDeleted');
    return serviceOf(row);
  }

  private async assertFree(projectId: string, policyId: string, name: string, exceptId?: string): Promise<void> {
    const ex = this.db.executor();
    const byPolicy = ex('model_services').where('active_policy_key', policyId);
    const byName = ex('model_services').where('active_name_key', nameKey(projectId, name));
    if (exceptId) {
      byPolicy.whereNot('id', exceptId);
      byName.whereNot('id', exceptId);
    }
    if (await byName.first('id')) throw new AppError('deployNameUsed');
    if (await byPolicy.first('id')) throw new AppError('deployAlreadyDeployed');
  }

  /** `modeldeploy/create`: the service starts `deploying`; the access token is returned this once. */
  async create(user: ServerCallUser, input: z.output<typeof modelServiceCreateSchema>): Promise<{ service: ServiceRecord; token: string }> {
    const token = newAccessToken();
    const id = newId();
    const now = this.clock.now();
    try {
      await this.db.transaction(async () => {
        const policy = await findPolicy(this.db, user.tenantId, input.policyId);
        if (!policy) throw new AppError('policyNotFound');
        await assertProjectAccess(this.db.executor(), user, policy.projectId, 'edit');
        await this.assertFree(policy.projectId, policy.id, input.serviceName);
        if (input.start) await assertServiceQuota(this.db.executor(), user.tenantId);
        await this.db.executor()('model_services').insert({
          id,
          tenant_id: user.tenantId,
          project_id: policy.projectId,
          solution_id: policy.solutionId,
          policy_id: policy.id,
          name: input.serviceName,
          description: input.description ?? '',
          keep_payloads: input.keepPayloads ?? true,
          status: 'deploying',
          failure_reason: null,
          token_hash: token.hash,
          token_hint: token.hint,
          token_expires_at: input.tokenExpiresAt ?? null,
          active_policy_key: policy.id,
          active_name_key: nameKey(policy.projectId, input.serviceName),
          created_by: user.id,
          deleted_at: null,
          created_at: now,
          updated_at: now,
        });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent create won the unique index: answer as the check would have.
      const policy = await findPolicy(this.db, user.tenantId, input.policyId);
      if (policy) await this.assertFree(policy.projectId, policy.id, input.serviceName);
      throw err;
    }
    this.deploy(id, user.tenantId, input.policyId, input.start ?? false);
    if (input.waitSeconds) await this.waitSettled(id, user.tenantId, input.waitSeconds * 1000);
    const service = await this.access(user, id, 'view');
    return { service, token: token.token };
  }

  /** Waits until the service is no longer deploying or starting, at most `ms`. */
  private async waitSettled(serviceId: string, tenantId: string, ms: number): Promise<void> {
    const end = Date.now() + ms;
    for (;;) {
      const s = await this.byId(serviceId, tenantId);
      if (!s || (s.status !== 'deploying' && s.status !== 'starting') || Date.now() >= end) return;
      await new Promise((r) => setTimeout(r, Math.min(100, Math.max(0, end - Date.now()))));
    }
  }

  /**
   * Deploying: loads the policy once (checks its artefact), then waiting to start or failure;
   * with `start`, running at once on the policy it loaded (as `start` would).
   */
  private deploy(serviceId: string, tenantId: string, policyId: string, start = false): void {
    this.background(async () => {
      let status: ModelServiceStatus = start ? 'running' : 'waiting';
      let reason: string | null = null;
      let io: ServingIO | null = null;
      try {
        io = await this.runtime.loadPolicy(serviceId, tenantId, policyId);
      } catch (err) {
        status = 'failure';
        reason = reasonOf(err);
      }
      const n = await this.db
        .knex('model_services')
        .where({ id: serviceId, status: 'deploying', policy_id: policyId })
        .update({ status, failure_reason: reason, updated_at: this.clock.now() });
      if (n > 0 && start) this.runtime.update(serviceId, io ? { status: 'running', io } : { status: 'failure' });
    });
  }

  /**
   * `modeldeploy/update`: name and description any time. A new policy (of the same project):
   * while waiting or failed the service deploys again; while running the new policy is loaded
   * first, then swapped in (calls in flight finish on the old one, none is refused or dropped).
   * @throws AppError `deployStateInvalid` while deploying or starting, or when the new policy of
   *   a running service cannot be loaded (the reason in `errors.policyId`; the old one keeps serving).
   */
  async update(user: ServerCallUser, input: z.output<typeof modelServiceUpdateSchema>): Promise<ServiceRecord> {
    let redeploy: string | null = null;
    let swap: { policyId: string; io: ServingIO } | null = null;
    const before = await this.access(user, input.id, 'edit');
    if (input.policyId && input.policyId !== before.policyId && before.status === 'running') {
      const policy = await findPolicy(this.db, user.tenantId, input.policyId);
      if (!policy || policy.projectId !== before.projectId) throw new AppError('policyNotFound');
      try {
        swap = { policyId: policy.id, io: await this.runtime.loadPolicy(before.id, before.tenantId, policy.id) };
      } catch (err) {
        throw new AppError('deployStateInvalid', { policyId: reasonOf(err) });
      }
    }
    await this.db.transaction(async () => {
      const s = await this.access(user, input.id, 'edit');
      const patch: Record<string, unknown> = { updated_at: this.clock.now() };
      let projectId = s.projectId;
      let policyId = s.policyId;
      if (input.policyId && input.policyId !== s.policyId) {
        const hot = swap !== null && s.status === 'running';
        if (!hot && s.status !== 'waiting' && s.status !== 'failure') throw new AppError('deployStateInvalid');
        const policy = await findPolicy(this.db, user.tenantId, input.policyId);
        if (!policy || policy.projectId !== s.projectId) throw new AppError('policyNotFound');
        projectId = policy.projectId;
        policyId = policy.id;
        Object.assign(patch, { policy_id: policy.id, solution_id: policy.solutionId, active_policy_key: policy.id });
        if (!hot) {
          Object.assign(patch, { status: 'deploying', failure_reason: null });
          redeploy = policy.id;
        }
      }
      const name = input.serviceName ?? s.name;
      if (input.serviceName !== undefined) Object.assign(patch, { name, active_name_key: nameKey(projectId, name) });
      if (input.description !== undefined) patch.description = input.description;
      if (input.keepPayloads !== undefined) patch.keep_payloads = input.keepPayloads;
      await this.assertFree(projectId, policyId, name, s.id);
      await this.db.executor()('model_services').where('id', s.id).update(patch);
    });
    if (input.keepPayloads !== undefined) this.runtime.update(input.id, { keepPayloads: input.keepPayloads });
    if (redeploy) {
      this.runtime.update(input.id, { status: 'deploying' });
      this.deploy(input.id, user.tenantId, redeploy);
    } else if (swap) this.runtime.update(input.id, { policyId: swap.policyId, io: swap.io });
    return this.access(user, input.id, 'view');
  }

  /** `modeldeploy/start`: waiting or failed -> starting -> running (or failure). */
  async start(user: ServerCallUser, serviceId: string): Promise<ServiceRecord> {
    const s = await this.db.transaction(async () => {
      const s = await this.access(user, serviceId, 'edit');
      if (s.status !== 'waiting' && s.status !== 'failure') throw new AppError('deployStateInvalid');
      await assertServiceQuota(this.db.executor(), user.tenantId);
      await this.db.executor()('model_services').where('id', s.id).update({ status: 'starting', failure_reason: null, updated_at: this.clock.now() });
      return s;
    });
    this.runtime.update(serviceId, { status: 'starting' });
    this.background(async () => {
      let io: ServingIO | null = null;
      let reason: string | null = null;
      try {
        io = await this.runtime.loadPolicy(s.id, s.tenantId, s.policyId);
      } catch (err) {
        reason = reasonOf(err);
      }
      const n = await this.db
        .knex('model_services')
        .where({ id: s.id, status: 'starting' })
        .whereNull('deleted_at')
        .update({ status: io ? 'running' : 'failure', failure_reason: reason, updated_at: this.clock.now() });
      if (n > 0) this.runtime.update(s.id, io ? { status: 'running', io } : { status: 'failure' });
    });
    return this.access(user, serviceId, 'view');
  }

  /** `modeldeploy/stop`: running or starting -> waiting to start. */
  async stop(user: ServerCallUser, serviceId: string): Promise<ServiceRecord> {
    await this.db.transaction(async () => {
      const s = await this.access(user, serviceId, 'edit');
      if (s.status !== 'running' && s.status !== 'starting') throw new AppError('deployStateInvalid');
      await this.db.executor()('model_services').where('id', s.id).update({ status: 'waiting', updated_at: this.clock.now() });
    });
    this.runtime.update(serviceId, { status: 'waiting' });
    return this.access(user, serviceId, 'view');
  }

  /** `modeldeploy/delete`: only waiting or failed services; a running one must be stopped first. */
  async remove(user: ServerCallUser, serviceId: string): Promise<void> {
    await this.db.transaction(async () => {
      const s = await this.access(user, serviceId, 'edit');
      if (s.status === 'running' || s.status === 'starting') throw new AppError('deployServiceRunning');
      if (s.status !== 'waiting' && s.status !== 'failure') throw new AppError('deployStateInvalid');
      const now = this.clock.now();
      await this.db
        .executor()('model_services')
        .where('id', s.id)
        .update({ deleted_at: now, updated_at: now, active_policy_key: null, active_name_key: null });
    });
    this.runtime.update(serviceId, { deleted: true });
  }

  /**
   * `modeldeploy/rotateToken`: a new access token valid until `tokenExpiresAt` (never when null or
   * left out); the old one stops working at once (here) or within the revalidation time (other
   * processes).
   */
  async rotate(user: ServerCallUser, input: z.output<typeof modelServiceRotateTokenSchema>): Promise<{ service: ServiceRecord; token: string }> {
    const token = newAccessToken();
    const expiresAt = input.tokenExpiresAt ?? null;
    await this.db.transaction(async () => {
      const s = await this.access(user, input.id, 'edit');
      await this.db
        .executor()('model_services')
        .where('id', s.id)
        .update({ token_hash: token.hash, token_hint: token.hint, token_expires_at: expiresAt, updated_at: this.clock.now() });
    });
    this.runtime.update(input.id, { tokenHash: token.hash, tokenExpiresAt: expiresAt });
    return { service: await this.access(user, input.id, 'view'), token: token.token };
  }

  /** Input and output fields of the service's policy (`null` while it cannot be loaded). */
  async fields(s: ServiceRecord): Promise<ServingIO | null> {
    try {
      return await this.runtime.loadPolicy(s.id, s.tenantId, s.policyId);
    } catch {
      return null;
    }
  }

  /** Calls and failures of a service. */
  async totals(serviceId: string): Promise<{ calls: number; failures: number }> {
    const row = (await this.db
      .executor()('model_service_records')
      .where('service_id', serviceId)
      .select(this.db.knex.raw('count(*) as calls'), this.db.knex.raw("sum(case when result = 'failure' then 1 else 0 end) as failures"))
      .first()) as { calls: number | string; failures: number | string | null };
    return { calls: Number(row.calls), failures: Number(row.failures ?? 0) };
  }

  /** `modeldeploy/queryPage`: services of a project the caller may view, newest first. */
  async page(user: ServerCallUser, input: z.output<typeof modelServicePageSchema>): Promise<Page<ServiceRecord>> {
    await assertProjectAccess(this.db.executor(), user, input.projectId, 'view');
    const base = this.query().where('s.tenant_id', user.tenantId).andWhere('s.project_id', input.projectId).whereNull('s.deleted_at');
    if (input.solutionId) base.andWhere('s.solution_id', input.solutionId);
    if (input.status) base.andWhere('s.status', input.status);
    if (input.keyword) {
      const like = `%${input.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      base.andWhereRaw("lower(s.name) like ? escape '!'", [like]);
    }
    const countRow = (await base.clone().clearSelect().count({ n: '*' }).first()) as { n: number | string };
    const rows = (await base
      .clone()
      .orderBy([{ column: 's.created_at', order: 'desc' }, { column: 's.id' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)) as Record<string, unknown>[];
    return { rows: rows.map(serviceOf), total: Number(countRow.n), page: input.page, pageSize: input.pageSize };
  }

  /** `modeldeploy/queryModelServiceRecordsPage`: call records, newest first. */
  async records(user: ServerCallUser, input: z.output<typeof modelServiceRecordsPageSchema>): Promise<Page<CallRecord>> {
    const s = await this.access(user, input.id, 'view');
    const base = this.db.executor()('model_service_records').where('service_id', s.id);
    if (input.result) base.andWhere('result', input.result);
    if (input.from !== undefined) base.andWhere('started_at', '>=', new Date(input.from));
    if (input.to !== undefined) base.andWhere('started_at', '<', new Date(input.to));
    const countRow = (await base.clone().count({ n: '*' }).first()) as { n: number | string };
    const rows = (await base
      .clone()
      .orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id' }])
      .offset((input.page - 1) * input.pageSize)
      .limit(input.pageSize)) as Record<string, unknown>[];
    return {
      rows: rows.map((r) => ({
        id: String(r.id),
        startedAt: toDate(r.started_at),
        endedAt: r.ended_at === null ? null : toDate(r.ended_at),
        durationMs: r.duration_ms === null ? null : Number(r.duration_ms),
        ip: (r.ip as string | null) ?? null,
        result: r.result as CallRecord['result'],
        rows: Number(r.row_count),
        errorCode: r.error_code === null ? null : Number(r.error_code),
        inputs: parseJson(r.inputs),
        decisions: parseJson(r.decisions),
        outcome: parseJson(r.outcome),
        outcomeAt: r.outcome_at === null || r.outcome_at === undefined ? null : toDate(r.outcome_at),
      })),
      total: Number(countRow.n),
      page: input.page,
      pageSize: input.pageSize,
    };
  }

  /** `modeldeploy/deleteModelServiceRecord`: deletes records of one service; resolves with how many went. */
  async deleteRecords(user: ServerCallUser, input: z.output<typeof modelServiceRecordDeleteSchema>): Promise<number> {
    const s = await this.access(user, input.id, 'edit');
    return this.db.executor()('model_service_records').where('service_id', s.id).whereIn('id', input.recordIds).delete();
  }

  /**
   * `modeldeploy/createDatasetFromRecords`: the kept successful calls of a service (see the
   * schema) as a new dataset of its project, owned by the caller. Resolves with the dataset id.
   * @throws AppError `deployNoRecords` when no kept call matches; the dataset errors (name used, quota).
   */
  async datasetFromRecords(user: ServerCallUser, input: z.output<typeof modelServiceRecordsDatasetSchema>, datasets: DatasetsService): Promise<string> {
    const s = await this.access(user, input.id, 'edit');
    const q = this.db.knex('model_service_records').where({ service_id: s.id, result: 'success' }).whereNotNull('inputs').whereNotNull('decisions');
    if (input.withOutcomeOnly) q.whereNotNull('outcome');
    if (input.from !== undefined) q.andWhere('started_at', '>=', new Date(input.from));
    if (input.to !== undefined) q.andWhere('started_at', '<', new Date(input.to));
    const rows = (await q
      .orderBy([{ column: 'started_at' }, { column: 'id' }])
      .limit(DEPLOY_LIMITS.datasetRecordsMax)
      .select('id', 'started_at', 'inputs', 'decisions', 'outcome')) as Record<string, unknown>[];
    const table = recordsTable(rows.map((r) => ({ id: String(r.id), at: toDate(r.started_at), inputs: parseJson(r.inputs), decisions: parseJson(r.decisions), outcome: parseJson(r.outcome) })));
    if (table.rows.length === 0) throw new AppError('deployNoRecords');
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'decisio-records-'));
    try {
      const csv = path.join(dir, 'records.csv');
      const parquet = path.join(dir, 'records.parquet');
      await fsp.writeFile(csv, toCsv(table));
      await ingestCsv(csv, parquet);
      return await datasets.adoptParquet({ tenantId: user.tenantId, userId: user.id }, parquet, {
        name: input.name,
        type: 'business',
        fileType: 'csv',
        fileName: `${s.name}-calls.csv`,
        delimiter: ',',
        projectId: s.projectId,
      });
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** `modeldeploy/queryMonitor`: calls, failures and latency per bucket (UTC). */
  async monitor(user: ServerCallUser, input: z.output<typeof modelServiceMonitorSchema>) {
    const s = await this.access(user, input.id, 'view');
    const w = monitorWindow(input.unit, input.end ?? this.clock.now().getTime());
    const knex = this.db.knex;
    const bucket =
      this.db.kind === 'sqlite'
        ? knex.raw('cast((started_at - ?) / ? as integer)', [w.start, w.size])
        : knex.raw('floor(timestampdiff(microsecond, ?, started_at) / 1000 / ?)', [new Date(w.start), w.size]);
    const rows = (await this.db
      .executor()('model_service_records')
      .where('service_id', s.id)
      .andWhere('started_at', '>=', new Date(w.start))
      .andWhere('started_at', '<', new Date(w.start + w.count * w.size))
      .select(
        knex.raw('? as b', [bucket]),
        knex.raw('count(*) as calls'),
        knex.raw("sum(case when result = 'failure' then 1 else 0 end) as failures"),
        knex.raw('sum(duration_ms) as total_ms'),
        knex.raw('count(duration_ms) as timed'),
        knex.raw('max(duration_ms) as max_ms'),
      )
      .groupBy('b')) as { b: number | string; calls: number | string; failures: number | string | null; total_ms: number | string | null; timed: number | string; max_ms: number | string | null }[];
    const starts = w.months ? w.months.slice(0, 12) : Array.from({ length: w.count }, (_, i) => w.start + i * w.size);
    const acc = starts.map(() => ({ calls: 0, failures: 0, total: 0, timed: 0, max: null as number | null }));
    for (const r of rows) {
      const at = w.start + Number(r.b) * w.size;
      const i = w.months ? w.months.findIndex((m, k) => k < 12 && at >= m && at < w.months![k + 1]!) : Number(r.b);
      if (i < 0 || i >= acc.length) continue;
      const a = acc[i]!;
      a.calls += Number(r.calls);
      a.failures += Number(r.failures ?? 0);
      a.total += Number(r.total_ms ?? 0);
      a.timed += Number(r.timed);
      if (r.max_ms !== null) a.max = Math.max(a.max ?? 0, Number(r.max_ms));
    }
    return {
      unit: input.unit,
      buckets: starts.map((start, i) => {
        const a = acc[i]!;
        return {
          start: new Date(start).toISOString(),
          calls: a.calls,
          failures: a.failures,
          avgMs: a.timed > 0 ? Math.round((a.total / a.timed) * 1000) / 1000 : null,
          maxMs: a.max,
        };
      }),
    };
  }
}

