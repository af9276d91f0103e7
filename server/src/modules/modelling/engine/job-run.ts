/**
 * What every modelling job kind does around its trainer: the record it works for (`need`),
 * metrics points (latest values on the job and one structured `job_metrics` row per metric, the
 * series of `train/getTrainDisplayDataList` and of the job events stream), debug-mode tensor
 * summaries at breakpoints, checkpoints and resuming, running a trainer as the job (stop
 * request, stop conditions, step budget), the hyperparameter auto-search step, and storing
 * artefacts charged to the job owner's storage quota.
 */
import { DEFAULT_SEARCH_SPACE } from '@decisio/domain';
import { runTrainer, summarizeParameters, trainerParameters, type StopConditions, type Trainer } from '@decisio/learning';
import type { Database } from '../../../db/database';
import type { JobContext } from '../../../jobs/queue';
import type { BlobStore } from '../../storage/blob-store';
import { chargeStorage, releaseStorage } from '../../storage/quota';
import { parseJson, type Row } from '../common';
import type { GitSource } from './git';
import type { CodeEnv } from './user-code';
import { runAutoSearch, type AutoSearchConfig, type AutoSearchResult } from './autosearch';
import { artefactOwner } from '../../storage/artefact-keys';

/** Prefix of the `debug` log line that keeps a breakpoint's tensor summaries. */
export const TENSORS_LINE = 'tensors ';

/** The breakpoint step of a tensors line's head (`tensors {"step":N,...`); null when unreadable. */
export function stepOf(line: string): number | null {
  const m = /^tensors \{"step":(-?\d+)[,}]/.exec(line);
  return m ? Number(m[1]) : null;
}

/** What every modelling job kind is built with (`modellingJobKinds`; server and workers build the same). */
export interface ModellingJobEnv {
  db: Database;
  blobs: BlobStore;
  /** The user code's sandbox settings (host guard of git checkouts, logger). */
  codeEnv: CodeEnv;
}

/** Payload of every modelling job: the record it works for. */
export interface RecordPayload {
  id: string;
  /** `trainSimulator/restore`: the earlier job whose last checkpoint this one resumes from. */
  resumeFrom?: string;
  /** `train/createTrainUpdate`: `epochs` more steps after the checkpoint (not in all). */
  extend?: boolean;
}

/** What a training record keeps in `config`. */
export interface TrainingConfig {
  stopConditions: StopConditions;
  hyperparameters: Record<string, unknown>;
  git?: GitSource | undefined;
  mode?: 'run' | 'debug';
  autoSearch?: AutoSearchConfig | undefined;
  /** Written by the job once the auto-search is over (a resumed job trains with it at once). */
  autoSearchResult?: AutoSearchResult | undefined;
  /**
   * An environment update's new data (`train/createTrainUpdate` with `datasetIds`): datasets
   * whose rows the job appends to the scheme's data for this run (`environmentData`).
   */
  datasetIds?: string[] | undefined;
  /**
   * A policy training: the environment job whose artefact it last trained in (`VenvArtifact.jobId`,
   * written by the job). An update in an environment trained since starts its own best.
   */
  environmentJobId?: string | undefined;
  /**
   * A policy training: the cloned behaviour's (its warm start's) return on the evaluation the
   * policy's `reward` was measured on, written by the job (null when not measured). A policy whose
   * reward does not exceed it is offered for deployment with a warning.
   */
  behaviourReward?: number | null | undefined;
}

/** A finite number, else `d`. */
export const num = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
/** A non-empty list of positive integers, else `d`. */
export const ints = (v: unknown, d: number[]): number[] => (Array.isArray(v) && v.length > 0 && v.every((x) => Number.isInteger(x) && x > 0) ? (v as number[]) : d);

/** Keeps the first 20 finite metrics. */
export function someMetrics(m: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(m)) {
    if (Object.keys(out).length >= 20) break;
    if (Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/**
 * Records a metrics point: latest values on the job and the point's structured rows
 * (`job_metrics`: step, name, value; `server/src/jobs/metrics.ts`), the series of
 * `train/getTrainDisplayDataList` and of the job events stream.
 */
export async function point(ctx: JobContext<unknown>, progress: number, step: number, metrics: Record<string, number>): Promise<void> {
  await ctx.reportMetrics(Math.max(0, Math.min(1, progress)), someMetrics(metrics), step);
}

/**
 * Debug mode: keeps the summary of the tensors of the networks `trainer` trains (each named
 * parameter's shape, moments, extremes, norm, zero/NaN/Inf shares, histogram and last gradient
 * norm, read from the live networks) as one `debug` log line `tensors {"step":N,"tensors":[...],
 * "omitted":0}` of at most 60,000 characters, just before the breakpoint after step N
 * (`train/getTrainDisplayDataList` serves the latest). A trainer without networks (none
 * exposed) keeps nothing; a failed summary is a warning, never a failed training.
 */
export async function recordTensors(ctx: JobContext<unknown>, trainer: unknown, step: number): Promise<void> {
  let line: string;
  try {
    const named = trainerParameters(trainer);
    if (!named || named.length === 0) return;
    line = `${TENSORS_LINE}${JSON.stringify({ step, ...summarizeParameters(named) })}`;
  } catch (err) {
    await ctx.log(`tensor summary at step ${step} failed: ${err instanceof Error ? err.message : String(err)}`, 'warn');
    return;
  }
  await ctx.log(line, 'debug');
}

/** The last checkpoint of an earlier job (a restored training resumes from it). */
export async function checkpointOfJob(db: Database, jobId: string | undefined): Promise<Uint8Array | null> {
  if (!jobId) return null;
  const r = await db.knex('job_checkpoints').join('jobs', 'jobs.checkpoint_ref', 'job_checkpoints.id').where('jobs.id', jobId).first('job_checkpoints.data as data');
  if (!r) return null;
  const data = r.data as Buffer;
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * A trainer checkpoint without its best weights and score (trainers that keep them: `best`,
 * `bestScore`, `sinceBest`); an ensemble's (`members`) without each member's.
 */
export function withoutBest<C>(checkpoint: C): C {
  if (!checkpoint || typeof checkpoint !== 'object') return checkpoint;
  const members = (checkpoint as { members?: unknown }).members;
  if (Array.isArray(members)) return { ...checkpoint, members: members.map((m: unknown) => withoutBest(m)) };
  const { best: _best, ...rest } = checkpoint as C & { best?: unknown };
  const out: Record<string, unknown> = { ...rest };
  // Environment trainers keep `bestScore`, policy trainers `bestReward`.
  for (const key of ['bestScore', 'bestReward']) if (key in out) out[key] = -Number.MAX_VALUE;
  if ('sinceBest' in out) out['sinceBest'] = 0;
  return out as C;
}

/** The checkpoint a job resumes from: its own last one (a lost worker), else the one of the job it continues (`resumeFrom`). */
export async function resumedCheckpoint(ctx: JobContext<RecordPayload>, db: Database): Promise<unknown> {
  const bytes = (await ctx.lastCheckpoint()) ?? (await checkpointOfJob(db, ctx.payload.resumeFrom));
  return bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as { checkpoint?: unknown }).checkpoint : undefined;
}

/** Runs a trainer as the job: stop request, stop conditions, step budget, checkpoints, resume. */
export async function runAsJob<C>(
  ctx: JobContext<RecordPayload>,
  db: Database,
  trainer: Trainer<C>,
  stop: StopConditions,
  seed: number,
  maxSteps: number | undefined,
  debug = false,
  /** Progress already spent before this run (e.g. by the auto-search): the run fills the rest. */
  progressFrom = 0,
  /**
   * The data changed since the job this one continues (an update with other data): the best
   * weights and score it kept were measured on other data, so the run starts its own (the
   * continued weights stay the starting point).
   */
  freshBest = false,
) {
  type Saved = { checkpoint: C; step: number; elapsedMs: number };
  const parse = (bytes: Uint8Array | null): Saved | undefined => (bytes ? (JSON.parse(Buffer.from(bytes).toString('utf8')) as Saved) : undefined);
  const inherited = parse(await checkpointOfJob(db, ctx.payload.resumeFrom));
  const own = parse(await ctx.lastCheckpoint());
  const resume = own ?? (inherited && freshBest ? { ...inherited, checkpoint: withoutBest(inherited.checkpoint) } : inherited);
  if (resume) await ctx.log(`resuming at step ${resume.step} (attempt ${ctx.attempt})`);
  // A resumed run finishes the same budget; an update (`extend`) trains `maxSteps` more than the
  // job it continues (also when the update itself resumes after a lost worker).
  const target = maxSteps !== undefined ? (ctx.payload.extend ? (inherited?.step ?? 0) + maxSteps : maxSteps) : undefined;
  const budget = target !== undefined ? { maxSteps: Math.max(0, target - (resume?.step ?? 0)) } : undefined;
  const total = target ?? trainer.systemMaxSteps;
  const result = await runTrainer(trainer, {
    seed,
    stop,
    signal: ctx.signal,
    ...(budget ? { budget } : {}),
    checkpointEvery: { steps: 5 },
    ...(resume ? { resume } : {}),
    onEvent: async (e) => {
      if (e.type === 'metrics') {
        const m = { ...e.metrics, ...(e.score !== undefined ? { score: e.score } : {}), ...(e.reward !== undefined ? { reward: e.reward } : {}) };
        // `e.step` already counts the step just done (1 after the first, see `runTrainer`)
        await point(ctx, progressFrom + (1 - progressFrom) * (e.step / total), e.step, m);
        if (debug && !ctx.shouldStop()) {
          // Debug mode: a breakpoint after every epoch, until `train/skipBreakpoint`; the tensors
          // of the networks at that point are kept first (`tensors {...}`, see `recordTensors`).
          await recordTensors(ctx, trainer, e.step);
          await ctx.log(`breakpoint after step ${e.step}`);
          await ctx.breakpoint();
        }
      } else if (e.type === 'log') await ctx.log(e.message, e.level);
      else if (e.type === 'checkpoint') await ctx.checkpoint(Buffer.from(JSON.stringify({ checkpoint: e.checkpoint, step: e.step, elapsedMs: e.elapsedMs })));
      else await ctx.log(`stopped: ${e.reason} after ${e.step} steps`);
    },
  });
  if (result.reason === 'failed') throw result.error instanceof Error ? result.error : new Error(String(result.error));
  return result;
}

/**
 * Runs the training's hyperparameter auto-search when it asks for one (see `autosearch.ts`):
 * trials in the first half of the progress, each logged and charted (`search/*` metrics); the
 * result is kept in the record's config (`autoSearchResult`), so a resumed, restored or updated
 * job trains with the same settings without searching again. Null without a search, `stopped`
 * when a stop request ended it.
 */
export async function autoSearch(
  ctx: JobContext<RecordPayload>,
  db: Database,
  table: 'simulators' | 'policies',
  row: Row,
  config: TrainingConfig,
  epochs: number | undefined,
  build: (h: Record<string, unknown>, steps: number) => Trainer<unknown>,
): Promise<AutoSearchResult | null | 'stopped'> {
  const auto = config.autoSearch;
  if (!auto?.enabled) return null;
  const earlier = config.autoSearchResult;
  if (earlier?.best) {
    await ctx.log(`auto search: training with the earlier search's best ${JSON.stringify(earlier.best)}`);
    return earlier;
  }
  const hp = config.hyperparameters;
  const environment = table === 'simulators';
  const dims = auto.space && auto.space.length > 0 ? auto.space : DEFAULT_SEARCH_SPACE[environment ? 'environment' : 'policy'];
  const trials = Math.max(1, Math.floor(auto.trials ?? 5));
  const trialSteps = Math.max(1, Math.floor(auto.trialEpochs ?? Math.min(epochs ?? 20, 20)));
  await ctx.log(`auto search (${auto.algorithm ?? 'random'}): ${trials} trials of ${trialSteps} steps over ${dims.map((d) => d.name).join(', ')}, judged by ${environment ? 'validation loss (val/mse)' : 'best return'}`);
  const result = await runAutoSearch({
    dims,
    algorithm: auto.algorithm,
    trials,
    trialSteps,
    seed: num(hp['seed'], 0),
    measure: environment ? 'valLoss' : 'reward',
    // Each trial evaluates once, at its end.
    build: (s) => build({ ...hp, ...s, evalEvery: trialSteps }, trialSteps),
    signal: ctx.signal,
    shouldStop: () => ctx.shouldStop(),
    onTrial: async (t, best) => {
      const value = environment ? t.valLoss : t.reward;
      await ctx.log(`auto search trial ${t.trial}/${trials}: ${JSON.stringify(t.settings)} -> ${t.error ? `failed: ${t.error}` : `${environment ? 'validation loss' : 'return'} ${value === null ? 'none' : value.toPrecision(5)}`}`, t.error ? 'warn' : 'info');
      const bestValue = best ? (environment ? best.valLoss : best.reward) : null;
      const key = environment ? 'valLoss' : 'reward';
      await point(ctx, (0.5 * t.trial) / trials, t.trial - 1, { trial: t.trial, [`search/${key}`]: value ?? NaN, [`search/best${environment ? 'ValLoss' : 'Reward'}`]: bestValue ?? NaN });
    },
  });
  if (result.stopped && ctx.shouldStop()) return 'stopped';
  if (!result.best) throw new Error('auto search: no trial finished (see the log)');
  const fresh = await db.knex(table).where({ id: row.id }).first('config');
  const stored = parseJson<Record<string, unknown>>(fresh?.config, {});
  await db.knex(table).where({ id: row.id }).update({ config: JSON.stringify({ ...stored, autoSearchResult: result }), updated_at: new Date() });
  await ctx.log(`auto search: best trial ${result.bestTrial} ${JSON.stringify(result.best)}`);
  return result;
}

/**
 * Stores files under `prefix/<name>` and charges them to the user the prefix names (the job's
 * user for a new folder; for a record trained again, the user whose folder it is). Files it
 * replaces (a restored or updated training stores again under the same prefix) were charged
 * already: only the growth is charged, a shrink is given back.
 */
export async function storeFiles(db: Database, blobs: BlobStore, ctx: JobContext<unknown>, prefix: string, files: Record<string, Uint8Array>): Promise<number> {
  const bytes = Object.values(files).reduce((s, f) => s + f.byteLength, 0);
  let replaced = 0;
  for (const name of Object.keys(files)) replaced += (await blobs.stat(`${prefix}/${name}`))?.size ?? 0;
  const owner = artefactOwner(prefix, ctx.tenantId);
  if (owner && bytes > replaced) await chargeStorage(db.knex, owner, bytes - replaced);
  if (owner && bytes < replaced) await releaseStorage(db.knex, owner, replaced - bytes);
  for (const [name, data] of Object.entries(files)) await blobs.put(`${prefix}/${name}`, data);
  return bytes;
}

export async function need(db: Database, table: string, id: string | null | undefined, what: string): Promise<Row> {
  const row = id ? await db.knex(table).where({ id }).first() : undefined;
  if (!row) throw new Error(`The ${what} was deleted`);
  return row;
}
