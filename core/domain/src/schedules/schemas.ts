import { z } from 'zod';
import { idSchema, pageRequestSchema } from '../admin/schemas';
import type { JobReportField } from '../jobs/schemas';

/**
 * Scheduled jobs (spec platform §3 "Job", §4 "Job: running, paused, waiting", §7 `jobs/*`): a
 * cron expression and a built-in kind (the spec's class and method name) with its parameters.
 * The server keeps the schedules in the database; at each tick exactly one server claims the
 * schedule and puts one run on the job queue, which any worker runs. Every run is kept (the job
 * history) and written to the system log.
 */

/**
 * Built-in kinds. `hostWide` kinds act on every tenant (only system administrators schedule
 * them); the others act within the schedule's tenant.
 */
export const SCHEDULE_KINDS = {
  /** Aborts uploads left open longer than `olderThanHours` and frees their reserved space. */
  'uploads.sweep': { hostWide: true },
  /** Deletes system-log rows older than the retention setting (or `days`). */
  'logs.retention': { hostWide: true },
  /** Marks issued SDK licences past their end expired and sends the "expires in N days" / "expired" messages. */
  'licences.expiry': { hostWide: true },
  /** Copies again the table or query a dataset was imported from and replaces the dataset's rows (same columns). */
  'datasets.refresh': { hostWide: false },
  /**
   * The closed loop of a deployed service: its recorded calls (with outcomes) update the
   * environment, a copy of the serving policy is trained further in it, both are scored in the
   * updated environment with the same reward and seeds, and the service is swapped to the copy
   * only when it scores better (by at least `minGain`).
   */
  'policies.update': { hostWide: false },
} as const;
export type ScheduleKind = keyof typeof SCHEDULE_KINDS;
export const SCHEDULE_KIND_NAMES = Object.keys(SCHEDULE_KINDS) as ScheduleKind[];

/** True when a kind acts on every tenant. */
export function isHostWideKind(kind: string): boolean {
  return (SCHEDULE_KINDS as Record<string, { hostWide: boolean }>)[kind]?.hostWide === true;
}

/** Parameters of each kind. */
export const scheduleParamsSchemas = {
  'uploads.sweep': z.object({ olderThanHours: z.number().int().min(1).max(24 * 365).default(168) }).strict(),
  'logs.retention': z.object({ days: z.number().int().min(1).max(3650).optional() }).strict(),
  'licences.expiry': z.object({}).strict(),
  /** A dataset of the schedule's author made by an import from a data connection. */
  'datasets.refresh': z.object({ datasetId: idSchema }).strict(),
  /** A model service of the schedule's author's tenant that the author may edit. */
  'policies.update': z
    .object({
      serviceId: idSchema,
      /** Calls of the last `windowDays` days. */
      windowDays: z.number().int().min(1).max(365).default(30),
      /** Only calls whose caller reported an outcome (the environment learns from the outcome). */
      withOutcomeOnly: z.boolean().default(true),
      /** Training steps of the environment update and of the policy update (a small default budget). */
      epochs: z.number().int().min(1).max(1000).default(2),
      /** Score difference (new minus serving) needed to swap; the new policy must score strictly better by it. */
      minGain: z.number().finite().min(-1e12).max(1e12).default(0),
      /** Rollout windows and steps of the evaluation (the same for both policies, seed 0). */
      evalWindows: z.number().int().min(1).max(1024).default(64),
      evalHorizon: z.number().int().min(1).max(1000).default(10),
    })
    .strict(),
} as const satisfies Record<ScheduleKind, z.ZodType>;
export type ScheduleParams<K extends ScheduleKind = ScheduleKind> = z.infer<(typeof scheduleParamsSchemas)[K]>;

/** Stored status; a `running` schedule that never ran (no tick, no manual run) is shown as `waiting` (not started). */
export const SCHEDULE_STATUSES = ['running', 'paused'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];
/** Status as shown (spec platform §4). */
export type ScheduleDisplayStatus = ScheduleStatus | 'waiting';

/** Length limits of the job form. */
export const SCHEDULE_LIMITS = { name: 50, cron: 120, description: 200, timezone: 64, nextRuns: 5 } as const;

const timezone = z.string().trim().min(1).max(SCHEDULE_LIMITS.timezone).default('UTC');
const cron = z.string().trim().min(1, { message: 'validation.required' }).max(SCHEDULE_LIMITS.cron);

const common = {
  /** Present to update, absent to create. */
  id: idSchema.optional(),
  name: z.string().trim().min(1, { message: 'validation.required' }).max(SCHEDULE_LIMITS.name),
  /** Five fields (minute ...) or six (second first); `@daily` and the like. */
  cron,
  /** IANA zone the expression is read in. */
  timezone,
  description: z.string().trim().max(SCHEDULE_LIMITS.description).optional().default(''),
  /** Status of a new schedule (default `running`); an update keeps the current one. */
  status: z.enum(SCHEDULE_STATUSES).optional(),
};

/** `jobs/saveOrUpdate` body. */
export const scheduleSaveRequestSchema = z.discriminatedUnion('kind', [
  z.object({ ...common, kind: z.literal('uploads.sweep'), params: scheduleParamsSchemas['uploads.sweep'].default({ olderThanHours: 168 }) }),
  z.object({ ...common, kind: z.literal('logs.retention'), params: scheduleParamsSchemas['logs.retention'].default({}) }),
  z.object({ ...common, kind: z.literal('licences.expiry'), params: scheduleParamsSchemas['licences.expiry'].default({}) }),
  z.object({ ...common, kind: z.literal('datasets.refresh'), params: scheduleParamsSchemas['datasets.refresh'] }),
  z.object({ ...common, kind: z.literal('policies.update'), params: scheduleParamsSchemas['policies.update'] }),
]);
export type ScheduleSaveRequest = z.input<typeof scheduleSaveRequestSchema>;

/** `jobs/page` body. */
export const schedulePageRequestSchema = pageRequestSchema.extend({
  keyword: z.string().trim().max(100).optional(),
  status: z.enum(['running', 'paused', 'waiting']).optional(),
  kind: z.enum(SCHEDULE_KIND_NAMES as [ScheduleKind, ...ScheduleKind[]]).optional(),
});
export type SchedulePageRequest = z.input<typeof schedulePageRequestSchema>;

/** Body of `jobs/delete`, `trigger`, `pause`, `resume`. */
export const scheduleIdRequestSchema = z.object({ id: idSchema });

/** `jobs/check` body. */
export const scheduleCheckRequestSchema = z.object({ cron, timezone });
export type ScheduleCheckRequest = z.input<typeof scheduleCheckRequestSchema>;

/** `jobs/check` reply: the next five run times (ISO, UTC). */
export interface ScheduleCheckResponse {
  cron: string;
  timezone: string;
  next: string[];
}

/** `jobs/history` body: the runs of one schedule, or of all the caller may see. */
export const scheduleHistoryRequestSchema = pageRequestSchema.extend({ id: idSchema.optional() });
export type ScheduleHistoryRequest = z.input<typeof scheduleHistoryRequestSchema>;

/** One schedule, as listed. */
export interface ScheduleItem {
  id: string;
  tenantId: string;
  name: string;
  cron: string;
  timezone: string;
  kind: ScheduleKind;
  params: Record<string, unknown>;
  description: string;
  status: ScheduleDisplayStatus;
  hostWide: boolean;
  nextRunAt: string | null;
  lastRunAt: string | null;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

/** How a run was started. */
export type ScheduleTrigger = 'cron' | 'manual';

/** One run of a schedule (the job history). */
export interface ScheduleRunItem {
  id: string;
  scheduleId: string;
  scheduleName: string;
  kind: string;
  trigger: ScheduleTrigger;
  /** The tick it ran for (a manual run: when it was asked). */
  firedAt: string;
  /** The job-queue job, and its state (`waiting`, `processing`, `successful`, `failure`, ...). */
  jobId: string | null;
  state: string | null;
  /** What the run reported (e.g. `{aborted: 3, freedBytes: 1024}`). */
  metrics: Record<string, number>;
  /**
   * How the report's keys read, as the run's job kind declares them (label in both languages,
   * format); a key not listed is shown as it is. Absent from older servers.
   */
  reportFields?: JobReportField[];
  error: string | null;
  startedAt: string | null;
  endedAt: string | null;
  /** Why the run did nothing, e.g. another refresh of the same dataset was running (`datasets.refresh`); null: it ran. */
  skippedReason?: string | null;
  /** `policies.update`: what the loop did (it goes on after the run's own job, through trainings of its own). */
  report?: PolicyUpdateReport | null;
}

/** Where a policy update from recorded calls stands. */
export type PolicyUpdateState = 'running' | 'swapped' | 'kept' | 'skipped' | 'failed';
/** Its steps, in order. */
export type PolicyUpdateStep = 'start' | 'environment' | 'policy' | 'evaluate' | 'done';

/** The report of one policy update from recorded calls (`policies.update`). */
export interface PolicyUpdateReport {
  id: string;
  serviceId: string;
  serviceName: string | null;
  state: PolicyUpdateState;
  step: PolicyUpdateStep;
  /** The dataset made of the calls, and how many calls (rows) it holds. */
  datasetId: string | null;
  calls: number | null;
  /** The environment updated with them and its update job. */
  environmentId: string | null;
  environmentJobId: string | null;
  /** The policy that served, and the copy trained further (its update job). */
  policyBeforeId: string | null;
  policyAfterId: string | null;
  policyJobId: string | null;
  evaluateJobId: string | null;
  /** Mean return of each policy in the updated environment (same reward, windows and seed). */
  scoreBefore: number | null;
  scoreAfter: number | null;
  minGain: number;
  swapped: boolean;
  /** Why it was skipped, kept or failed (English; the codes of the steps). */
  reason: string | null;
  createdAt: string;
  endedAt: string | null;
}
