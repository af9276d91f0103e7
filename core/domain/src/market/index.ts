/**
 * The model market (`market/*`, issue 20 item 5): a trained environment or policy published
 * with its graph, scores, report and a version number, to the publisher's tenant or to every
 * tenant; browsed, searched, imported into a project as a copy (its files copied, its records
 * created so it can be deduced and deployed there), its ONNX downloaded (policies), versioned
 * and unpublished.
 */
import { z } from 'zod';
import type { Page } from '../admin/schemas';

const id = z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid');

/** Limits of the market. */
export const MARKET_LIMITS = {
  nameMax: 50,
  descriptionMax: 500,
  noteMax: 200,
  keywordMax: 50,
  pageSizeMax: 100,
} as const;

export const MARKET_KINDS = ['environment', 'policy'] as const;
/** What a market model is: a trained environment (simulator) or a trained policy. */
export type MarketKind = (typeof MARKET_KINDS)[number];
export const MARKET_VISIBILITIES = ['tenant', 'public'] as const;
/** Who sees a model: the publisher's tenant, or every tenant. */
export type MarketVisibility = (typeof MARKET_VISIBILITIES)[number];

/** The permission that lets a user publish to every tenant (admins hold it through `*`). */
export const MARKET_PUBLIC_PERMISSION = 'market:public';

const name = z.string().trim().min(1, 'validation.required').max(MARKET_LIMITS.nameMax);

/**
 * `market/publish`: publish a finished environment (`recordId` of a simulator) or policy (of a
 * policy) of a project the caller may edit. With `modelId`, a new version of a model the caller
 * published (same kind); else a new model named `name`.
 */
export const marketPublishSchema = z.object({
  kind: z.enum(MARKET_KINDS, { error: 'validation.invalid' }),
  recordId: id,
  modelId: id.optional(),
  name: name.optional(),
  description: z.string().trim().max(MARKET_LIMITS.descriptionMax).optional(),
  visibility: z.enum(MARKET_VISIBILITIES, { error: 'validation.invalid' }).optional(),
  note: z.string().trim().max(MARKET_LIMITS.noteMax).optional(),
});
export type MarketPublishRequest = z.input<typeof marketPublishSchema>;
export type MarketPublishInput = z.output<typeof marketPublishSchema>;

/** `market/list`: models the caller may see, newest first. */
export const marketListSchema = z.object({
  keyword: z.string().trim().max(MARKET_LIMITS.keywordMax).optional(),
  kind: z.enum(MARKET_KINDS, { error: 'validation.invalid' }).optional(),
  /** `mine`: published by the caller; `tenant`: the caller's tenant's; `public`: to every tenant. */
  scope: z.enum(['all', 'mine', 'tenant', 'public'], { error: 'validation.invalid' }).default('all'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MARKET_LIMITS.pageSizeMax).default(20),
});
export type MarketListRequest = z.input<typeof marketListSchema>;

/** `{modelId}` */
export const marketModelIdSchema = z.object({ modelId: id });
export type MarketModelIdRequest = z.input<typeof marketModelIdSchema>;
/** `{versionId}` */
export const marketVersionIdSchema = z.object({ versionId: id });
export type MarketVersionIdRequest = z.input<typeof marketVersionIdSchema>;

/** `market/unpublish`: a whole model, or one of its versions (`versionId`). */
export const marketUnpublishSchema = z.object({ modelId: id, versionId: id.optional() });
export type MarketUnpublishRequest = z.input<typeof marketUnpublishSchema>;

/** `market/import`: a copy of a version into a project the caller may edit (a new solution in it). */
export const marketImportSchema = z.object({
  versionId: id,
  projectId: id,
  name: z.string().trim().max(50).optional().transform((v) => (v ? v : undefined)),
});
export type MarketImportRequest = z.input<typeof marketImportSchema>;
export type MarketImportInput = z.output<typeof marketImportSchema>;

/** What a version's report says: measured at training, copied when published. */
export interface MarketReport {
  algorithm: string;
  /** The environment's held-out score (0..100 scale of the spec's step score), null if not measured. */
  score: number | null;
  /** The policy's evaluation reward, null for an environment or when not measured. */
  reward: number | null;
  /** The training's stop conditions and hyperparameters as it ran. */
  hyperparameters: Record<string, unknown>;
  /** The environment's per-member scores (ensembles), when recorded. */
  memberScores: (number | null)[];
  /** Rows of the processed data the environment was trained on. */
  rows: number | null;
  /** Names of the graph's nodes, the agent, and the reward's name (policies). */
  nodes: string[];
  agent: string | null;
  rewardName: string | null;
  /** When the training ended. */
  trainedAt: string | null;
  /** For a policy: the environment it was trained in (name, score). */
  environment: { name: string; score: number | null } | null;
}

/** A version of a market model. */
export interface MarketVersion {
  versionId: string;
  version: number;
  note: string | null;
  report: MarketReport;
  /** Bytes of the copied files. */
  size: number;
  hasOnnx: boolean;
  createdAt: string;
}

/** A market model as the list shows it (the latest version's figures). */
export interface MarketModel {
  modelId: string;
  name: string;
  description: string | null;
  kind: MarketKind;
  visibility: MarketVisibility;
  publisherName: string;
  /** The caller published it (may add versions and unpublish). */
  mine: boolean;
  /** Published by the caller's tenant. */
  ownTenant: boolean;
  latestVersion: number;
  latestVersionId: string;
  score: number | null;
  reward: number | null;
  algorithm: string;
  imports: number;
  createdAt: string;
  updatedAt: string;
}

/** `market/get`: the model, its versions (newest first) and the latest version's graph. */
export interface MarketModelDetail extends MarketModel {
  versions: MarketVersion[];
  graph: unknown;
}

export type MarketPage = Page<MarketModel>;

/** What `market/import` answers: the records made in the project. */
export interface MarketImportResult {
  projectId: string;
  solutionId: string;
  schemeId: string;
  simulatorId: string;
  policyId: string | null;
  objectiveId: string | null;
}

/** `market/getOnnxDownloadUrl` */
export interface MarketDownload {
  url: string;
  name: string;
  size: number;
}
