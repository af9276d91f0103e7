import { z } from 'zod';
import { pageRequestSchema } from '../admin/schemas';
import { datasetNameSchema } from '../datasets/schemas';

/**
 * Online decision services (spec workflow §3 "Model service", §4, §5, §7 `modeldeploy/*`): a
 * policy deployed behind an access address and an access token, its call records and monitor.
 */

/** Service states (spec workflow §4): deploying, waiting to start, starting, running, failure. */
export const MODEL_SERVICE_STATUSES = ['deploying', 'waiting', 'starting', 'running', 'failure'] as const;
export type ModelServiceStatus = (typeof MODEL_SERVICE_STATUSES)[number];

/** Result of one decision call (spec workflow §4). */
export const DECISION_RESULTS = ['success', 'failure', 'running'] as const;
export type DecisionResult = (typeof DECISION_RESULTS)[number];

/** Chart periods of the service monitor (spec workflow §9). */
export const MONITOR_UNITS = ['day', 'week', 'month', 'year'] as const;
export type MonitorUnit = (typeof MONITOR_UNITS)[number];

/** Limits of the deploy area. */
export const DEPLOY_LIMITS = {
  serviceNameMax: 50,
  descriptionMax: 200,
  /** Rows of one decision call. */
  batchRowsMax: 10_000,
  /** Record ids of one `deleteModelServiceRecord`. */
  deleteRecordsMax: 1000,
  /** Largest call (request body plus decisions, bytes) whose inputs and decisions a record keeps. */
  payloadMaxBytes: 256 * 1024,
  /** Largest outcome report, bytes. */
  outcomeMaxBytes: 64 * 1024,
  /** Records one `createDatasetFromRecords` reads at most. */
  datasetRecordsMax: 1_000_000,
  /** Longest validity of an access token, days (10 years, leap days included). */
  tokenValidityMaxDays: 3653,
} as const;

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');

const DAY_MS = 24 * 3600_000;

/**
 * Whether `at` (epoch ms) may be an access token's expiry at time `now` (epoch ms): in the
 * future and at most `DEPLOY_LIMITS.tokenValidityMaxDays` ahead.
 */
export function tokenExpiryAllowed(at: number, now: number): boolean {
  return Number.isFinite(at) && at > now && at <= now + DEPLOY_LIMITS.tokenValidityMaxDays * DAY_MS;
}

/**
 * Validity of an access token (`modeldeploy/create`, `rotateToken`): an ISO date-time with its
 * offset (`2027-01-31T23:59:59.999Z`), in the future and at most 10 years ahead; `null` or left
 * out: the token never expires. Parsed into a `Date`.
 */
export const tokenExpiresAtSchema = z
  .iso.datetime({ offset: true, message: 'validation.tokenExpiry' })
  .refine((v) => tokenExpiryAllowed(Date.parse(v), Date.now()), 'validation.tokenExpiry')
  .transform((v) => new Date(v))
  .nullable()
  .optional();

/** `modeldeploy/create`. */
export const modelServiceCreateSchema = z.object({
  serviceName: z.string().trim().min(1, 'validation.required').max(DEPLOY_LIMITS.serviceNameMax),
  policyId: id,
  description: z.string().max(DEPLOY_LIMITS.descriptionMax).optional().default(''),
  /** Keep each call's inputs and decisions (and the outcome its caller reports) for policy updates. */
  keepPayloads: z.boolean().optional().default(true),
  /** When the access token stops working (see `tokenExpiresAtSchema`); never when left out. */
  tokenExpiresAt: tokenExpiresAtSchema,
  /** Start the service as soon as it is deployed (deploying -> running, or failure): no separate `start`. */
  start: z.boolean().optional().default(false),
  /**
   * Answer only once the service has settled (waiting, running or failure), or after this many
   * seconds (at most 60; 0: at once, `deploying`). Follow it with `job/wait` on its id otherwise.
   */
  waitSeconds: z.number().int().min(0).max(60).optional().default(0),
});
export type ModelServiceCreateRequest = z.input<typeof modelServiceCreateSchema>;

/** `modeldeploy/update`: name and description any time; the policy only while waiting or failed. */
export const modelServiceUpdateSchema = z.object({
  id,
  serviceName: z.string().trim().min(1, 'validation.required').max(DEPLOY_LIMITS.serviceNameMax).optional(),
  description: z.string().max(DEPLOY_LIMITS.descriptionMax).optional(),
  policyId: id.optional(),
  keepPayloads: z.boolean().optional(),
});
export type ModelServiceUpdateRequest = z.input<typeof modelServiceUpdateSchema>;

/** `modeldeploy/start`, `stop`, `delete`, `queryDetail`. */
export const modelServiceIdSchema = z.object({ id });
export type ModelServiceIdRequest = z.input<typeof modelServiceIdSchema>;

/** `modeldeploy/rotateToken`: a new access token with its own validity (never expires when left out). */
export const modelServiceRotateTokenSchema = z.object({ id, tokenExpiresAt: tokenExpiresAtSchema });
export type ModelServiceRotateTokenRequest = z.input<typeof modelServiceRotateTokenSchema>;

/** `modeldeploy/queryPage`: the services of a project (optionally one solution), newest first. */
export const modelServicePageSchema = pageRequestSchema.extend({
  projectId: id,
  solutionId: id.optional(),
  keyword: z.string().trim().max(DEPLOY_LIMITS.serviceNameMax).optional(),
  status: z.enum(MODEL_SERVICE_STATUSES).optional(),
});
export type ModelServicePageRequest = z.input<typeof modelServicePageSchema>;

/** `modeldeploy/queryModelServiceRecordsPage`: call records, newest first. Times in epoch ms. */
export const modelServiceRecordsPageSchema = pageRequestSchema.extend({
  id,
  result: z.enum(DECISION_RESULTS).optional(),
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
});
export type ModelServiceRecordsPageRequest = z.input<typeof modelServiceRecordsPageSchema>;

/** `modeldeploy/deleteModelServiceRecord`. */
export const modelServiceRecordDeleteSchema = z.object({
  id,
  recordIds: z.array(id).min(1).max(DEPLOY_LIMITS.deleteRecordsMax),
});
export type ModelServiceRecordDeleteRequest = z.input<typeof modelServiceRecordDeleteSchema>;

/** `modeldeploy/queryMonitor`: calls and latency per bucket of the period ending at `end` (epoch ms, default now). */
export const modelServiceMonitorSchema = z.object({
  id,
  unit: z.enum(MONITOR_UNITS).default('day'),
  end: z.coerce.number().int().min(0).optional(),
});
export type ModelServiceMonitorRequest = z.input<typeof modelServiceMonitorSchema>;

/** One row of input fields (original units) or a batch of rows. */
export type DecisionInput = Record<string, number | number[]> | Record<string, number | number[]>[];

/** `modeldeploy/decision` (workbench trial with the session token): the same as the access address. */
export const modelServiceDecisionSchema = z.object({
  id,
  inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1).max(DEPLOY_LIMITS.batchRowsMax)]),
});
export type ModelServiceDecisionRequest = z.input<typeof modelServiceDecisionSchema>;

/** One input or output field of a deployed policy. */
export interface ModelServiceField {
  /** Name to use in a call (the graph's field name; `node.field` when two nodes share it). */
  name: string;
  node: string;
  dataType: 'continuous' | 'discrete' | 'category';
  min: number;
  max: number;
  /** Category values. */
  values?: number[];
  /** History frames: a value is an array of this length when above 1. */
  frames: number;
}

/** A service as listed and detailed. Times ISO. */
export interface ModelServiceItem {
  id: string;
  /** Same as `id` (what `job/get`, `job/wait` and `job/events` take as `jobId` too). */
  serviceId?: string;
  serviceName: string;
  description: string;
  projectId: string;
  solutionId: string;
  policyId: string;
  policyName: string | null;
  status: ModelServiceStatus;
  /** Why the last deploy or start failed. */
  failureReason: string | null;
  /** `POST` here with the access token (`Authorization: Bearer <token>` or `X-Access-Token`). */
  accessAddress: string;
  /** Last 4 characters of the access token (the token itself is shown once). */
  accessTokenHint: string;
  /** When the access token stops working (ISO); null: never. */
  tokenExpiresAt: string | null;
  /** Whether the access token has expired (calls are refused with `deployTokenExpired` until it is rotated). */
  tokenExpired: boolean;
  /** Whether call records keep the inputs, decisions and reported outcomes. */
  keepPayloads: boolean;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** `modeldeploy/queryDetail`: the service, its input and output fields and call totals. */
export interface ModelServiceDetail extends ModelServiceItem {
  inputs: ModelServiceField[] | null;
  outputs: ModelServiceField[] | null;
  totals: { calls: number; failures: number };
}

/** `modeldeploy/create` and `modeldeploy/rotateToken`: the token, shown this once. */
export interface ModelServiceWithToken extends ModelServiceItem {
  accessToken: string;
}

/** One call record. Times ISO. */
export interface ModelServiceRecord {
  decisionId: string;
  startTime: string;
  endTime: string | null;
  durationMs: number | null;
  requestIp: string | null;
  result: DecisionResult;
  /** Rows decided in the call. */
  rows: number;
  /** Catalogue code of a failed call. */
  errorCode: number | null;
  /** The call's input row(s) as sent, when the service keeps payloads (and the call was not too large). */
  inputs: DecisionInput | null;
  /** The decisions answered. */
  decisions: DecisionInput | null;
  /** The outcome the caller reported (`POST <access address>/outcome`), with its time. */
  outcome: DecisionInput | null;
  outcomeTime: string | null;
}

/**
 * `POST /api/decide/<serviceId>/outcome` (access token): what followed a decision, e.g. the state
 * fields after it and a `reward`, numbers named as the caller likes (one object, or one per row
 * of a batch call). Kept on the call record; a policy update reads it.
 */
export const decisionOutcomeSchema = z.object({
  decisionId: id,
  outcome: z.union([z.record(z.string().min(1).max(100), z.union([z.number(), z.array(z.number())])), z.array(z.record(z.string().min(1).max(100), z.union([z.number(), z.array(z.number())]))).min(1).max(DEPLOY_LIMITS.batchRowsMax)]),
});
export type DecisionOutcomeRequest = z.input<typeof decisionOutcomeSchema>;

/**
 * `modeldeploy/createDatasetFromRecords`: the successful calls of a service (optionally between
 * `from` and `to`, epoch ms; optionally only those with an outcome) as a new dataset of the
 * project: one row per decided row, columns `decision_id`, `called_at`, the input fields, the
 * decided fields prefixed `decision.` and the outcome fields prefixed `outcome.`.
 */
export const modelServiceRecordsDatasetSchema = z.object({
  id,
  name: datasetNameSchema,
  from: z.coerce.number().int().min(0).optional(),
  to: z.coerce.number().int().min(0).optional(),
  withOutcomeOnly: z.boolean().optional().default(false),
});
export type ModelServiceRecordsDatasetRequest = z.input<typeof modelServiceRecordsDatasetSchema>;

/** One bucket of the monitor. */
export interface ModelServiceMonitorBucket {
  /** Bucket start, ISO (UTC). */
  start: string;
  calls: number;
  failures: number;
  avgMs: number | null;
  maxMs: number | null;
}

/** `modeldeploy/queryMonitor`. Day: 24 hours; week: 7 days; month: 30 days; year: 12 months (UTC). */
export interface ModelServiceMonitor {
  unit: MonitorUnit;
  buckets: ModelServiceMonitorBucket[];
}

/** Reply of a decision call: the decisions in original units (an object for one row, an array for a batch). */
export interface DecisionReply {
  decisionId: string;
  decisions: Record<string, number | number[]> | Record<string, number | number[]>[];
}

/** Delimiters of a decision csv (spec workflow §5 "Model service"). */
export const DECISION_CSV_DELIMITERS = [',', ';'] as const;

/** `modeldeploy/createBatchDecision`: decisions for every row of an uploaded csv (up to 2 GB). */
export const modelServiceBatchCreateSchema = z.object({
  id,
  fileId: id,
  delimiter: z.enum(DECISION_CSV_DELIMITERS).default(','),
});
export type ModelServiceBatchCreateRequest = z.input<typeof modelServiceBatchCreateSchema>;

/** `modeldeploy/queryBatchDecisionPage`: the batches of a service, newest first. */
export const modelServiceBatchPageSchema = pageRequestSchema.extend({ id });
export type ModelServiceBatchPageRequest = z.input<typeof modelServiceBatchPageSchema>;

/** States of a batch decision. */
export type DecisionBatchState = 'running' | 'success' | 'failure';

/** A batch decision. `progress` is 0-1 (bytes read); the result csv downloads from `downloadUrl` once `success`. */
export interface ModelServiceBatch {
  batchId: string;
  serviceId: string;
  fileId: string;
  fileName: string;
  delimiter: ',' | ';';
  state: DecisionBatchState;
  progress: number;
  rows: number;
  failedRows: number;
  resultSize: number | null;
  downloadUrl: string | null;
  error: string | null;
  createdAt: string;
  endedAt: string | null;
}
