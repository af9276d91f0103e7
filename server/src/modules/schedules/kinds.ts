/**
 * The job kinds behind scheduled jobs. The scheduler puts one job per run on the job queue; the
 * worker (a job thread, or a `npm run worker` process) runs the kind, reports what it did as the
 * job's metrics and log, and writes one system-log row (type `job`) for the run, whatever its
 * outcome, so the run shows in the system log even when no API call started it.
 */
import os from 'node:os';
import { AppError, ErrorCode, isHostWideKind, messageOf, scheduleParamsSchemas, type JobReportField, type JobReportFormat, type ScheduleKind, type ScheduleParams, type ScheduleTrigger } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { JobContext, JobKind } from '../../jobs/kinds';
import type { BlobStore } from '../storage/blob-store';
import { StorageService } from '../storage/service';
import { LogsService } from '../logs/service';
import { LicencesService } from '../licences/service';
import { MessagesService } from '../messages/service';
import type { ImportConnectionSettings } from '../connections/job';
import { refreshDataset } from './refresh';
import { claimDatasetRefresh, REFRESH_LEASE_MS } from './refresh-claims';

/** How often a running refresh renews its claim on the dataset (a third of the lease). */
const RENEW_EVERY_MS = REFRESH_LEASE_MS / 3;
import { openPolicyUpdate, policyUpdateEvaluateKind } from './policy-update';

/** Payload of every scheduled run. */
export interface ScheduledRunPayload {
  scheduleId: string;
  scheduleName: string;
  runId: string;
  trigger: ScheduleTrigger;
  /** Host-wide kinds act on every tenant. */
  hostWide: boolean;
  params: unknown;
  /** Who asked for a manual run. */
  userId?: string | null;
  username?: string | null;
}

/** What a kind's body reports: metrics of the run (keys its kind declares) and a line for its log. */
interface RunOutcome {
  metrics: Record<string, number>;
  summary: string;
  /** The run did nothing, for this reason (kept on its history row and in its system-log row). */
  skippedReason?: string;
}

/** Dependencies of the kinds (the worker's own database handle and the server's blob store). */
export interface ScheduledKindsDeps {
  db: Database;
  blobs: BlobStore;
  clock: Clock;
  /** How `datasets.refresh` reaches outside servers (`CONNECTION_ALLOW` ...); default: public hosts only. */
  connections?: Partial<ImportConnectionSettings>;
}

/** A report key (`JobKind.report`): its name, how its value reads, its label in English and in Chinese. */
function field(key: string, format: JobReportFormat, en: string, zh: string): JobReportField {
  return { key, format, label: { 'en-US': en, 'zh-CN': zh } };
}

/**
 * A scheduled kind: `report` declares every key its body reports (`report-fields.test.ts` and the
 * kinds' own tests check it); a key reported all the same is kept, and the history shows it as it is.
 */
function scheduledKind<K extends ScheduleKind>(
  kind: K,
  deps: ScheduledKindsDeps,
  report: readonly JobReportField[],
  body: (params: ScheduleParams<K>, ctx: JobContext<ScheduledRunPayload>) => Promise<RunOutcome>,
): JobKind<ScheduledRunPayload> {
  return {
    kind,
    description: `Scheduled job kind ${kind}`,
    report,
    // The host-wide kinds keep the host in order and are short: the job queue's upkeep lane.
    ...(isHostWideKind(kind) ? { lane: 'upkeep' as const } : {}),
    async run(ctx) {
      const started = performance.now();
      const p = ctx.payload;
      let failure: unknown = null;
      let outcome: RunOutcome | null = null;
      try {
        const params = scheduleParamsSchemas[kind].parse(p.params ?? {}) as ScheduleParams<K>;
        await ctx.log(`${p.trigger} run of "${p.scheduleName}" (${kind})`);
        outcome = await body(params, ctx);
        if (outcome.skippedReason) await deps.db.knex('scheduled_job_runs').where({ id: p.runId }).update({ skipped_reason: outcome.skippedReason.slice(0, 500) });
        await ctx.reportMetrics(1, outcome.metrics);
        await ctx.log(outcome.summary);
      } catch (err) {
        failure = err;
        await ctx.log(`failed: ${err instanceof Error ? err.message : String(err)}`, 'error').catch(() => undefined);
      } finally {
        await deps.db.knex('logs').insert({
          id: newId(),
          title: `job/${p.scheduleName}`.slice(0, 100),
          type: 'job',
          host: os.hostname().slice(0, 255),
          uri: `/job/${p.scheduleId}`.slice(0, 512),
          method: p.trigger === 'manual' ? 'MANUAL' : 'CRON',
          params: JSON.stringify({ kind, params: p.params ?? {}, runId: p.runId, jobId: ctx.jobId, ...(outcome ? { result: outcome.metrics } : {}), ...(outcome?.skippedReason ? { skippedReason: outcome.skippedReason } : {}), ...(failure ? { error: failure instanceof Error ? failure.message : String(failure) } : {}) }).slice(0, 16_000),
          response_code: failure ? ErrorCode.failure : ErrorCode.success,
          http_status: failure ? 500 : 200,
          time_ms: Math.round(performance.now() - started),
          user_id: p.userId ?? null,
          username: (p.username ?? 'scheduler').slice(0, 64),
          tenant_id: ctx.tenantId,
          request_id: ctx.jobId,
          ip: null,
          user_agent: null,
          created_at: deps.clock.now(),
        }).catch(() => undefined);
      }
      if (failure) throw failure;
    },
  };
}

/** The kinds of scheduled jobs, for the server's registry and every worker's. */
export function scheduledJobKinds(deps: ScheduledKindsDeps): JobKind<any>[] {
  const storage = new StorageService(deps.db, deps.blobs, deps.clock);
  const logs = new LogsService(deps.db, deps.clock);
  // The expiry sweep reads the licences and writes messages only: it never signs, checks a
  // contact code or looks up a user key, so those collaborators are refused if ever reached.
  const unused = new Proxy({}, { get: () => { throw new Error('not used by the licence expiry sweep'); } }) as never;
  const licences = new LicencesService(deps.db, deps.clock, unused, unused, unused, new MessagesService(deps.db, deps.clock));
  return [
    scheduledKind('uploads.sweep', deps, [field('stale', 'count', 'Stale uploads', '过期上传'), field('aborted', 'count', 'Aborted', '已中止'), field('freedBytes', 'bytes', 'Space freed', '释放空间')], async (params, ctx) => {
      const before = new Date(deps.clock.now().getTime() - params.olderThanHours * 3600_000);
      const q = deps.db.knex('uploads').where('state', 'uploading').where('updated_at', '<', before);
      if (!ctx.payload.hostWide) q.where('tenant_id', ctx.tenantId);
      const stale = (await q.select('id', 'tenant_id', 'user_id', 'size')) as { id: string; tenant_id: string; user_id: string; size: number | string }[];
      let aborted = 0;
      let freedBytes = 0;
      for (const u of stale) {
        if (ctx.shouldStop()) break;
        try {
          await storage.abortUpload({ tenantId: u.tenant_id, userId: u.user_id }, u.id);
          aborted += 1;
          freedBytes += Number(u.size);
        } catch (err) {
          // Completed or aborted meanwhile by its owner: nothing to free.
          await ctx.log(`upload ${u.id} left as is: ${err instanceof Error ? err.message : String(err)}`, 'warn');
        }
      }
      return { metrics: { stale: stale.length, aborted, freedBytes }, summary: `aborted ${aborted} of ${stale.length} uploads untouched since ${before.toISOString()}, ${freedBytes} bytes freed` };
    }),
    scheduledKind('logs.retention', deps, [field('deleted', 'count', 'Rows deleted', '删除行数'), field('days', 'days', 'Older than', '早于')], async (params) => {
      const days = params.days ?? (await logs.retention()).days;
      const { deleted, before } = await logs.purgeOlderThan(days);
      return { metrics: { deleted, days }, summary: `deleted ${deleted} system-log rows older than ${days} days (before ${before.toISOString()})` };
    }),
    scheduledKind('licences.expiry', deps, [field('notices', 'count', 'Notices sent', '发送通知')], async () => {
      const notices = await licences.sweep();
      return { metrics: { notices }, summary: `sent ${notices} licence expiry notices` };
    }),
    scheduledKind('datasets.refresh', deps, [field('rowsBefore', 'count', 'Rows before', '刷新前行数'), field('rowsAfter', 'count', 'Rows after', '刷新后行数'), field('skipped', 'flag', 'Skipped', '已跳过')], async (params, ctx): Promise<RunOutcome> => {
      // One refresh of a dataset at a time, across servers: a run finding another one going is
      // recorded as skipped (the reason on its history row) and leaves the data alone.
      const claim = await claimDatasetRefresh(deps.db, deps.clock, { datasetId: params.datasetId, tenantId: ctx.tenantId, jobId: ctx.jobId, runId: ctx.payload.runId });
      if (!claim.held) {
        const o = claim.other;
        const reason = `another refresh of dataset ${params.datasetId} is running (job ${o.jobId}, since ${o.claimedAt.toISOString()}): this run is skipped`;
        return { metrics: { skipped: 1 }, summary: reason, skippedReason: reason };
      }
      const lost = new AbortController();
      const signal = AbortSignal.any([ctx.signal, lost.signal]);
      const renewal = setInterval(() => {
        void claim.held.renew().then(
          (ok) => {
            if (!ok) lost.abort(new Error(`the claim on dataset ${params.datasetId} was lost`));
          },
          () => undefined,
        );
      }, RENEW_EVERY_MS);
      try {
        const r = await refreshDataset(deps, ctx.tenantId, params.datasetId, { signal, log: (line) => ctx.log(line) }).catch((err: unknown) => {
          // The history and the system log say what was refused (e.g. the columns, the environment).
          if (!(err instanceof AppError)) throw err;
          throw new Error([messageOf(err.codeName, 'en-US'), ...Object.values(err.details ?? {})].join(': '), { cause: err });
        });
        return {
          metrics: { rowsBefore: r.rowsBefore, rowsAfter: r.rowsAfter, skipped: 0 },
          summary: `dataset ${params.datasetId} refreshed from its data connection: ${r.rowsBefore} rows before, ${r.rowsAfter} after`,
        };
      } finally {
        clearInterval(renewal);
        await claim.held.release();
      }
    }),
    // Opens the loop; the servers' scheduler takes its steps (policy-update.ts).
    scheduledKind('policies.update', deps, [field('started', 'flag', 'Update started', '已开始更新'), field('skipped', 'flag', 'Skipped', '已跳过')], (params, ctx) => openPolicyUpdate(deps.db, deps.clock, ctx, params)),
    policyUpdateEvaluateKind({ db: deps.db, blobs: deps.blobs, allow: deps.connections?.allow ?? [] }),
  ];
}
