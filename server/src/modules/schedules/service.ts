import type { Knex } from 'knex';
import { AppError, SCHEDULE_LIMITS, isHostWideKind, schedulePageRequestSchema, scheduleSaveRequestSchema, type JobReportField, type Page, type ScheduleItem, type ScheduleRunItem, type ScheduleTrigger } from '@decisio/domain';
import type { z } from 'zod';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { JobQueue } from '../../jobs/contract';
import type { Logger } from '../../logger';
import { nextRun, nextRuns } from './cron';
import type { ScheduledRunPayload } from './kinds';
import type { ScheduleResource } from './policy';
import { presentRun, presentSchedule } from './presenters';
import { presentPolicyUpdate } from './policy-update';

type SaveInput = z.output<typeof scheduleSaveRequestSchema>;
type Row = Record<string, any>;

/** Who acts (for `created_by`, manual runs and the system log). */
export interface ScheduleActor {
  id: string;
  username: string;
  tenantId: string;
}

/** Scheduled jobs of a tenant: the rows, their runs, and putting a run on the job queue. */
export class SchedulesService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly queue: JobQueue,
    private readonly logger: Logger,
    /** The report keys a job kind declares (`JobKind.report` of the server's registry), answered with each run. */
    private readonly reportFieldsOf: (kind: string) => readonly JobReportField[] | undefined = () => undefined,
  ) {}

  private get knex(): Knex {
    return this.db.executor();
  }

  /** The next `SCHEDULE_LIMITS.nextRuns` run times (`jobs/check`). */
  check(cron: string, timezone: string): { cron: string; timezone: string; next: string[] } {
    const next = nextRuns(cron, timezone, this.clock.now(), SCHEDULE_LIMITS.nextRuns);
    return { cron, timezone, next: next.map((d) => d.toISOString()) };
  }

  /** The schedule a call targets, or undefined. */
  async resource(id: string): Promise<(ScheduleResource & { row: Row }) | undefined> {
    const row = await this.knex('scheduled_jobs').where('id', id).first();
    return row ? { tenantId: row.tenant_id, kind: row.kind, row } : undefined;
  }

  /** A page of the tenant's schedules, newest first. */
  async page(tenantId: string, q: z.output<typeof schedulePageRequestSchema>): Promise<Page<ScheduleItem>> {
    const base = this.knex('scheduled_jobs').where('tenant_id', tenantId);
    if (q.kind) base.where('kind', q.kind);
    if (q.status === 'paused') base.where('status', 'paused');
    if (q.status === 'running') base.where('status', 'running').whereNotNull('last_run_at');
    if (q.status === 'waiting') base.where('status', 'running').whereNull('last_run_at');
    if (q.keyword) {
      const like = `%${q.keyword.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
      base.where((w) => w.whereRaw("lower(name) like ? escape '!'", [like]).orWhereRaw("lower(description) like ? escape '!'", [like]));
    }
    const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
    const rows = await base
      .clone()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id' }])
      .offset((q.page - 1) * q.pageSize)
      .limit(q.pageSize);
    return { rows: rows.map(presentSchedule), total: Number(n), page: q.page, pageSize: q.pageSize };
  }

  /** Creates (no `id`) or updates a schedule; the next run is computed from now. */
  async save(actor: ScheduleActor, input: SaveInput, existing?: Row): Promise<ScheduleItem> {
    const now = this.clock.now();
    const status = existing ? existing.status : (input.status ?? 'running');
    // Validates the expression and the zone (cronInvalid) before anything is written.
    const next = nextRun(input.cron, input.timezone, now);
    const fields = {
      name: input.name,
      cron: input.cron,
      timezone: input.timezone,
      kind: input.kind,
      params: JSON.stringify(input.params ?? {}),
      description: input.description ?? '',
      next_run_at: status === 'running' ? next : null,
      updated_at: now,
    };
    if (existing) {
      await this.knex('scheduled_jobs')
        .where('id', existing.id)
        .update({ ...fields, revision: Number(existing.revision) + 1 });
      return this.get(existing.id);
    }
    const id = newId();
    await this.knex('scheduled_jobs').insert({ id, tenant_id: actor.tenantId, ...fields, status, last_run_at: null, revision: 0, created_by: actor.id, created_at: now });
    return this.get(id);
  }

  async get(id: string): Promise<ScheduleItem> {
    const row = await this.knex('scheduled_jobs').where('id', id).first();
    if (!row) throw new AppError('scheduleNotFound');
    return presentSchedule(row);
  }

  async delete(id: string): Promise<void> {
    await this.knex('scheduled_job_runs').where('schedule_id', id).delete();
    await this.knex('scheduled_jobs').where('id', id).delete();
  }

  /** `running` -> `paused` (no next run). @throws AppError `scheduleStateInvalid` when already paused. */
  async pause(row: Row): Promise<ScheduleItem> {
    const n = await this.knex('scheduled_jobs')
      .where({ id: row.id, status: 'running' })
      .update({ status: 'paused', next_run_at: null, revision: Number(row.revision) + 1, updated_at: this.clock.now() });
    if (Number(n) === 0) throw new AppError('scheduleStateInvalid');
    return this.get(row.id);
  }

  /** `paused` -> `running`, next run from now. @throws AppError `scheduleStateInvalid` when not paused. */
  async resume(row: Row): Promise<ScheduleItem> {
    const now = this.clock.now();
    const next = nextRun(row.cron, row.timezone, now);
    const n = await this.knex('scheduled_jobs')
      .where({ id: row.id, status: 'paused' })
      .update({ status: 'running', next_run_at: next, revision: Number(row.revision) + 1, updated_at: now });
    if (Number(n) === 0) throw new AppError('scheduleStateInvalid');
    return this.get(row.id);
  }

  /**
   * Puts one run of `row` on the job queue: a history row (unique per schedule, trigger and
   * tick), then the job. Resolves with the run; a queue failure is logged and leaves the run
   * without a job. A manual run is a run of the schedule too: it becomes its last run (the tick
   * sets that of a cron run), so a schedule run once no longer shows as `waiting`; its next run
   * time stays.
   */
  async fire(row: Row, trigger: ScheduleTrigger, firedAt: Date, actor?: ScheduleActor): Promise<ScheduleRunItem> {
    const runId = newId();
    // Not the revision: a tick due meanwhile still wins its own update and fires.
    if (trigger === 'manual') await this.db.knex('scheduled_jobs').where('id', row.id).update({ last_run_at: firedAt });
    await this.db.knex('scheduled_job_runs').insert({ id: runId, schedule_id: row.id, tenant_id: row.tenant_id, trigger_type: trigger, fired_at: firedAt, job_id: null, created_at: this.clock.now() });
    const payload: ScheduledRunPayload = {
      scheduleId: row.id,
      scheduleName: row.name,
      runId,
      trigger,
      hostWide: isHostWideKind(row.kind),
      params: typeof row.params === 'string' ? JSON.parse(row.params) : row.params,
      userId: actor?.id ?? null,
      username: actor?.username ?? null,
    };
    try {
      const job = await this.queue.enqueue(row.kind, payload, { tenantId: row.tenant_id, userId: actor?.id ?? null, name: `${row.name}`.slice(0, 255), maxAttempts: 1 });
      await this.db.knex('scheduled_job_runs').where('id', runId).update({ job_id: job.id });
    } catch (err) {
      this.logger.error('scheduled job could not be queued', { scheduleId: row.id, runId, err });
    }
    return (await this.runs(row.tenant_id, { id: row.id, page: 1, pageSize: 1, runId })).rows[0]!;
  }

  /** A page of runs (the job history), newest first, with their jobs' state. */
  async runs(tenantId: string, q: { id?: string; page: number; pageSize: number; runId?: string }): Promise<Page<ScheduleRunItem>> {
    const base = this.knex('scheduled_job_runs as r').join('scheduled_jobs as s', 's.id', 'r.schedule_id').where('r.tenant_id', tenantId);
    if (q.id) base.where('r.schedule_id', q.id);
    if (q.runId) base.where('r.id', q.runId);
    const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
    const rows = await base
      .clone()
      .leftJoin('jobs as j', 'j.id', 'r.job_id')
      .select('r.*', 's.name as schedule_name', 's.kind', 'j.state', 'j.metrics', 'j.error', 'j.started_at', 'j.ended_at')
      .orderBy([{ column: 'r.created_at', order: 'desc' }, { column: 'r.id', order: 'desc' }])
      .offset((q.page - 1) * q.pageSize)
      .limit(q.pageSize);
    // `policies.update` runs: the loop each one opened, as it stands.
    const loops = rows.length
      ? ((await this.knex('policy_update_runs as u')
          .leftJoin('model_services as s', 's.id', 'u.service_id')
          .whereIn('u.schedule_run_id', rows.map((r: Row) => r.id))
          .select('u.*', 's.name as service_name')) as Row[])
      : [];
    const byRun = new Map(loops.map((l) => [l.schedule_run_id as string, presentPolicyUpdate(l)]));
    return {
      rows: rows.map((r: Row) => {
        const run = presentRun(r, this.reportFieldsOf(r.kind));
        return r.kind === 'policies.update' ? { ...run, report: byRun.get(r.id) ?? null } : run;
      }),
      total: Number(n),
      page: q.page,
      pageSize: q.pageSize,
    };
  }
}
