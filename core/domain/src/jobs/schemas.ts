import { z } from 'zod';

/**
 * The job contract (`job/get`, `job/wait`, `GET job/events`): one way to follow any piece of
 * background work (trainings, scheme processing, deductions, imports from data connections) and
 * the state of a model service, by the id a create call answered (`jobId`, or the service's id).
 */

/** Job states of the spec (workflow §4, training states), in its order. */
export const JOB_STATES = ['waiting', 'processing', 'restoring', 'stopping', 'debugging', 'successful', 'successful by manual stop', 'failure'] as const;
export type JobStateName = (typeof JOB_STATES)[number];

/** States after which nothing changes. */
export const FINAL_JOB_STATES: readonly JobStateName[] = ['successful', 'successful by manual stop', 'failure'];

/**
 * Model service states (spec workflow §4): `deploying` and `starting` move on by themselves;
 * `waiting` (to start), `running` and `failure` stay until someone acts ("settled": what
 * `job/wait` waits for on a service).
 */
export const SERVICE_SETTLED_STATES = ['waiting', 'running', 'failure'] as const;

/**
 * What a job works for: `scheme` (data processing), `environment`, `policy`, `parameter`
 * (trainings), `simulation`, `decision` (deductions), `import` (a copy from a data connection),
 * `service` (a model service's state), or the job kind itself for other work.
 */
export const JOB_CONTRACT_KINDS = ['scheme', 'environment', 'policy', 'parameter', 'simulation', 'decision', 'import', 'service'] as const;

/** Longest wait of one `job/wait`, seconds. */
export const JOB_WAIT_MAX_SECONDS = 60;

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');

/** `job/get`: a job id (or a model service id). */
export const jobGetSchema = z.object({ jobId: id });
export type JobGetRequest = z.infer<typeof jobGetSchema>;

/**
 * `job/wait`: answers as soon as the job's state differs from `state` (the state the caller last
 * saw; the state at the call when left out) or is final, else after `timeoutSeconds`.
 */
export const jobWaitSchema = z.object({
  jobId: id,
  state: z.string().min(1).max(40).optional(),
  timeoutSeconds: z.number().int().min(0).max(JOB_WAIT_MAX_SECONDS).default(30),
});
export type JobWaitRequest = z.input<typeof jobWaitSchema>;

/** What a job works for: its type and id (a training record, a scheme, an import, a service). */
export const jobOwnerSchema = z.object({
  type: z.string(),
  id: z.string(),
  projectId: z.string().nullable(),
  solutionId: z.string().nullable(),
});
export type JobOwner = z.infer<typeof jobOwnerSchema>;

/** A job as the contract shows it (the reply of `job/get`, `job/wait`, and the stream's `state` event). */
export const jobViewSchema = z.object({
  jobId: z.string(),
  /** Same as `jobId`. */
  id: z.string(),
  /** One of `JOB_CONTRACT_KINDS`, or the job kind of other work. */
  kind: z.string(),
  name: z.string(),
  /** A job state (`JOB_STATES`), or a service state for `kind: 'service'`. */
  state: z.string(),
  /** True when the state will not change by itself any more. */
  final: z.boolean(),
  /** In [0, 1]. */
  progress: z.number(),
  /** Latest value of each metric. */
  metrics: z.record(z.string(), z.number()),
  /** Why it failed, in the caller's language; null unless it failed. */
  error: z.string().nullable(),
  owner: jobOwnerSchema.nullable(),
  /** Same as `owner.id`. */
  ownerId: z.string().nullable(),
  workerId: z.string().nullable(),
  createdAt: z.string().nullable(),
  updatedAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
});
export type JobView = z.infer<typeof jobViewSchema>;

/** `job/wait`'s reply: the job, and whether the wait ended by a change (false: the time ran out). */
export const jobWaitReplySchema = jobViewSchema.extend({ changed: z.boolean() });
export type JobWaitReply = z.infer<typeof jobWaitReplySchema>;

/**
 * How a job kind's report value reads: `count` and `number` in the locale's way, `bytes` as
 * B/KB/MB..., `seconds` and `days` as a number with that unit, `flag` as yes/no (0: no, else yes).
 */
export const JOB_REPORT_FORMATS = ['count', 'number', 'bytes', 'seconds', 'days', 'flag'] as const;
export type JobReportFormat = (typeof JOB_REPORT_FORMATS)[number];

/**
 * One key of the report a job kind produces (its run's metrics), as the kind declares it
 * (`JobKind.report` on the server): the key, its label in both languages, and how its value reads.
 * A client shows a key no kind declared as it is (`key: value`), never drops it.
 */
export const jobReportFieldSchema = z.object({
  key: z.string().min(1).max(64),
  label: z.object({ 'zh-CN': z.string().min(1).max(100), 'en-US': z.string().min(1).max(100) }),
  format: z.enum(JOB_REPORT_FORMATS),
});
export type JobReportField = z.infer<typeof jobReportFieldSchema>;

/**
 * One metrics point of the stream's `metrics` event (and of `train/getTrainDisplayDataList`'s
 * `points`): its id (the stream's event id), time, and the values reported at once.
 */
export type JobMetricsPoint = { id: number; time: string | null } & Record<string, number | string | null>;
