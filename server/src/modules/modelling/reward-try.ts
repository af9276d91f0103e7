/**
 * `objective/tryReward` (no call of the spec does this; named in the style of the `objective`
 * calls): runs a reward's files, as edited and not yet saved, on a sample of the solution's data
 * in the Python sandbox that trainings use, and answers the distribution of the rewards
 * (summary and histogram) or the user's error with its file and line.
 *
 * The sample: rows spread evenly over the processed data of the solution's newest completed
 * scheme, else over the table of its data access (the primary table left-joined with the
 * related tables, `loadCorrelationTable`, as the scheme processing reads it) read through its
 * decision graph. The reward receives what it gets in training: every node (and `next_` node) of
 * the graph as `[rows, dim]` in original units.
 *
 * Body `{solutionId, files: {name: code}, rows?: 1..2048 (256)}`; needs the edit right on the
 * solution's project (it runs code). Answers `{ok: true, rows, source, nodes, summary, histogram}`
 * or `{ok: false, error: {code, message, file?, line?}}` (a failing reward is a result of the
 * try, not a failed call). `objectiveNoPrimaryFile` without `reward.py`;
 * `dataProcessUnfinished` when the solution has no graph and data access to sample from.
 */
import type { Router } from '@koa/router';
import type { Knex } from 'knex';
import { z } from 'zod';
import { AppError, messageOf, parseDecisionGraph, type Locale } from '@decisio/domain';
import { isLearningError, type Dataset } from '@decisio/learning';
import { PythonSandbox, RewardFunction, type BatchArray } from '@decisio/learning/sandbox';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';
import type { AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { BlobStore } from '../storage/blob-store';
import { parseJson, type ModellingDeps } from './common';
import { solutionScope } from '../projects/access';
import { datasetOf, loadCorrelationTable, neededColumns, schemeData, type Correlation } from './engine/data';

export const tryRewardSchema = z.object({
  solutionId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.invalid'),
  files: z.record(z.string().min(1).max(100), z.string().max(1_000_000)),
  rows: z.number().int().min(1).max(2048).default(256),
});
export type TryRewardRequest = z.input<typeof tryRewardSchema>;

/** Summary of the rewards of the sample. */
export interface RewardSummary {
  count: number;
  mean: number;
  std: number;
  min: number;
  max: number;
  median: number;
}

export type TryRewardReply =
  | {
      ok: true;
      rows: number;
      source: { kind: 'scheme' | 'table'; name: string };
      nodes: string[];
      summary: RewardSummary;
      /** `edges` has one more entry than `counts`. */
      histogram: { edges: number[]; counts: number[] };
    }
  | { ok: false; error: { code: string; message: string; file?: string; line?: number } };

/** How long one try may run the reward. */
const CALL_TIMEOUT_MS = 15_000;
/** Tries running at once on this server (each is a Python process); later ones wait. */
const MAX_RUNNING = 2;
const BINS = 20;

let running = 0;
const waiting: Array<() => void> = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_RUNNING) await new Promise<void>((r) => waiting.push(r));
  running += 1;
  try {
    return await fn();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

/** Summary and histogram (`bins` equal bins over [min, max]) of finite values. */
export function distribution(values: ArrayLike<number>, bins = BINS): { summary: RewardSummary; histogram: { edges: number[]; counts: number[] } } {
  const xs = Array.from(values).filter(Number.isFinite).sort((a, b) => a - b);
  const n = xs.length;
  const mean = n ? xs.reduce((s, v) => s + v, 0) / n : NaN;
  const std = n ? Math.sqrt(xs.reduce((s, v) => s + (v - mean) ** 2, 0) / n) : NaN;
  const min = n ? xs[0]! : NaN;
  const max = n ? xs[n - 1]! : NaN;
  const median = n ? (n % 2 ? xs[(n - 1) / 2]! : (xs[n / 2 - 1]! + xs[n / 2]!) / 2) : NaN;
  const k = n === 0 ? 0 : min === max ? 1 : bins;
  const width = k > 1 ? (max - min) / k : 1;
  const edges = Array.from({ length: k + 1 }, (_, i) => (k === 1 ? min + (i === 0 ? -0.5 : 0.5) : min + i * width));
  const counts = new Array<number>(k).fill(0);
  for (const v of xs) counts[k === 1 ? 0 : Math.min(k - 1, Math.floor((v - min) / width))]! += 1;
  return { summary: { count: n, mean, std, min, max, median }, histogram: { edges, counts } };
}

/** The data to sample: the newest completed scheme's processed data, else the primary table through the graph. */
async function sampleSource(knex: Knex, blobs: BlobStore, tenantId: string, solutionId: string): Promise<{ dataset: Dataset; source: { kind: 'scheme' | 'table'; name: string } }> {
  const scheme = await knex('schemes').where({ solution_id: solutionId, tenant_id: tenantId, process_state: 'completed' }).whereNotNull('processed_key').orderBy('updated_at', 'desc').first('id', 'name');
  if (scheme) {
    const { dataset } = await schemeData(knex, blobs, scheme.id as string);
    return { dataset, source: { kind: 'scheme', name: String(scheme.name) } };
  }
  const pattern = await knex('modelling_patterns').where({ solution_id: solutionId }).first('graph', 'correlation');
  const graphDoc = parseJson<unknown>(pattern?.graph, null);
  const correlation = parseJson<Correlation | null>(pattern?.correlation, null);
  if (!graphDoc || !correlation) throw new AppError('dataProcessUnfinished');
  const graph = parseDecisionGraph(graphDoc);
  // The primary table left-joined with the tables its relations name, as the scheme processing reads it.
  const { table: read } = await loadCorrelationTable(knex, blobs, tenantId, correlation);
  const table = neededColumns(graph, read, correlation);
  const name = (await knex('datasets').where({ id: correlation.datasetId ?? correlation.primaryTableId }).first('name'))?.name ?? 'table';
  return { dataset: datasetOf(graph, table, correlation), source: { kind: 'table', name: String(name) } };
}

/** Rows spread evenly over the data set (all when it has fewer). */
export function sampleRows(total: number, want: number): Int32Array {
  const n = Math.min(total, want);
  return Int32Array.from({ length: n }, (_, i) => Math.floor((i * total) / n));
}

export async function tryReward(deps: ModellingDeps, user: ServerCallUser, input: z.output<typeof tryRewardSchema>, locale: Locale): Promise<TryRewardReply> {
  await solutionScope(deps.db.knex, user, input.solutionId, 'edit');
  if (!('reward.py' in input.files)) throw new AppError('objectiveNoPrimaryFile', { files: 'validation.required' });
  return runReward(deps, user.tenantId, input.solutionId, input.files, input.rows, locale);
}

/** Runs `files` (`reward.py` `get_reward`) on `want` sample rows of the solution's data in the sandbox (no rights checked here). */
async function runReward(deps: ModellingDeps, tenantId: string, solutionId: string, files: Record<string, string>, want: number, locale: Locale): Promise<TryRewardReply> {
  // The caller's transaction when there is one (a template seeds its reward in one): a second
  // connection would wait for it (SQLite has one).
  const { dataset, source } = await sampleSource(deps.db.executor(), deps.blobs, tenantId, solutionId);
  const rows = sampleRows(dataset.rows, want);
  const batch: Record<string, BatchArray> = {};
  for (const name of Object.keys(dataset.raw)) {
    const codec = dataset.codecs[name];
    if (!codec) continue;
    batch[name] = { data: dataset.gather(name, rows, 'raw'), shape: [rows.length, codec.dim] };
  }
  return slot(async () => {
    let sandbox: PythonSandbox | undefined;
    try {
      sandbox = await PythonSandbox.start({ files, timeoutMs: CALL_TIMEOUT_MS, cpuSeconds: 60 });
      const rewards = await new RewardFunction(sandbox).compute(batch);
      return { ok: true as const, rows: rows.length, source, nodes: Object.keys(batch), ...distribution(rewards) };
    } catch (err) {
      if (!isLearningError(err)) throw err;
      const line = Number(err.params['line']);
      const file = err.params['file'];
      return {
        ok: false as const,
        error: { code: err.code, message: err.localized(locale), ...(typeof file === 'string' ? { file } : {}), ...(Number.isFinite(line) && line > 0 ? { line } : {}) },
      };
    } finally {
      await sandbox?.close();
    }
  });
}

/** What a reward's check on save found (`objectives.check_state`, `check_message`). */
export interface RewardCheck {
  /** `checked`: it ran on the sample and gave one finite value per row; `broken`: its code failed; `unchecked`: it could not be run (no data to sample yet, sandbox unavailable). */
  state: 'checked' | 'broken' | 'unchecked';
  message: string | null;
}

/** Sandbox failures that say nothing about the reward's code: the reward stays unchecked. */
const NOT_THE_CODE = new Set(['sandbox.start', 'sandbox.unavailable', 'sandbox.processLimit']);
/** Rows a check on save runs the reward on. */
const CHECK_ROWS = 64;

/**
 * The check of a reward when it is saved (and again before a training uses a reward left
 * unchecked): runs it in the sandbox on sample rows of the solution's data, as
 * `objective/tryReward` does: the code must compile, define `get_reward`, run, and answer one
 * finite value per row (`[rows]` or `[rows, 1]`, checked by the sandbox). The message names
 * the file and line of the user's error.
 */
export async function checkReward(deps: ModellingDeps, tenantId: string, solutionId: string, files: Record<string, string>, locale: Locale): Promise<RewardCheck> {
  let r: TryRewardReply;
  try {
    r = await runReward(deps, tenantId, solutionId, files, CHECK_ROWS, locale);
  } catch (err) {
    // No data to sample yet (no processed scheme nor data access), or a table it cannot read.
    if (err instanceof AppError) return { state: 'unchecked', message: messageOf(err.codeName, locale) };
    throw err;
  }
  if (r.ok) return r.rows > 0 ? { state: 'checked', message: null } : { state: 'unchecked', message: null };
  if (NOT_THE_CODE.has(r.error.code)) return { state: 'unchecked', message: r.error.message };
  const where = r.error.file ? `${r.error.file}${r.error.line ? `:${r.error.line}` : ''}: ` : '';
  return { state: 'broken', message: `${where}${r.error.message}`.slice(0, 4000) };
}

/** Registers `POST /objective/tryReward`. */
export function rewardTryRoute(router: Router<AppState>, kit: RouteKit, deps: ModellingDeps): void {
  const body = kit.validate(tryRewardSchema);
  router.post('/objective/tryReward', kit.auth, kit.tenant, body, reply((ctx) => tryReward(deps, ctx.state.user!, body.input(ctx), ctx.state.locale)));
}
