/**
 * The rules of a training request the server checks after its schema (stop conditions and
 * hyperparameters of calls whose schema does not carry them, the config to store), and how
 * training records are read: their tables, their live state from their job, their artefacts.
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Knex } from 'knex';
import {
  AppError,
  ErrorCode,
  HYPERPARAMETER_SCHEMAS,
  algorithmHyperparameterIssues,
  stopConditionsSchema,
  type StopConditions,
  type ErrorCodeName,
} from '@decisio/domain';
import { finalStates, JobState } from '../../jobs/states';
import type { BlobStore } from '../storage/blob-store';
import { parseJson, type Row } from './common';
import type { TrainingConfig } from './engine/job-run';
import type { SearchParam } from './engine/autosearch';

/** The record tables of trainings and what is not found in each. */
export const TRAINING_RECORDS = {
  simulators: { notFound: 'simulatorNotFound', kind: 'environment' },
  policies: { notFound: 'policyNotFound', kind: 'policy' },
  parameter_searches: { notFound: 'trainNotFound', kind: 'parameter' },
  deductions: { notFound: 'deductionNotFound', kind: 'deduction' },
} as const satisfies Record<string, { notFound: ErrorCodeName; kind: string }>;
export type TrainingTable = keyof typeof TRAINING_RECORDS;

/** Jobs still running or waiting (they block deletes). */
export const ACTIVE_STATES: readonly string[] = Object.values(JobState).filter((s) => !finalStates.includes(s));

/**
 * Stop conditions with the catalogue codes of the spec (workflow §5 "Training"), for the calls
 * whose schema does not carry them (`train/createTrainUpdate`): the domain's one schema.
 */
export function checkStopConditions(input: unknown): StopConditions {
  const r = stopConditionsSchema.safeParse(input);
  if (r.success) return r.data;
  const message = r.error.issues[0]?.message ?? '';
  throw new AppError(Object.hasOwn(ErrorCode, message) ? (message as ErrorCodeName) : 'trainNoStopCondition', { stopConditions: 'validation.invalid' });
}

/**
 * Hyperparameters of a kind checked by the domain's schema and the algorithm's rules
 * (`paramInvalid` naming `hyperparameters.<name>`): the merged settings of an update.
 */
export function checkHyperparameters(kind: 'environment' | 'policy', algorithm: string, hp: Record<string, unknown>): void {
  const r = HYPERPARAMETER_SCHEMAS[kind].safeParse(hp);
  const issue = r.success ? null : r.error.issues[0];
  if (issue) {
    const key = issue.code === 'unrecognized_keys' ? String(issue.keys[0]) : issue.path.map(String).join('.');
    throw new AppError('paramInvalid', { [`hyperparameters.${key}`]: 'validation.invalid' });
  }
  const [bad] = algorithmHyperparameterIssues(algorithm, hp);
  if (bad) throw new AppError('paramInvalid', { [`hyperparameters.${bad[0]}`]: bad[1] });
}

export interface CommonInput {
  name: string;
  workerId?: string | null | undefined;
  stopConditions: StopConditions;
  hyperparameters: Record<string, unknown>;
  autoSearch?: { enabled: boolean; algorithm?: string | undefined; trials?: number | undefined; trialEpochs?: number | undefined; hyperparameterSetId?: string | undefined; params?: SearchParam[] | undefined } | undefined;
  git?: { enabled: boolean; url?: string | undefined; commit?: string | undefined; username?: string | undefined; password?: string | undefined } | undefined;
  mode: 'run' | 'debug';
}

/** The config to store of a request its schema checked (stop conditions, auto-search, git, hyperparameters). */
export function checkTraining(input: CommonInput): TrainingConfig & Record<string, unknown> {
  const { params: _params, ...autoSearch } = input.autoSearch ?? { enabled: false };
  return { stopConditions: input.stopConditions, hyperparameters: input.hyperparameters, autoSearch: input.autoSearch ? autoSearch : undefined, git: input.git, mode: input.mode };
}

/** The files under a record's artefact prefix (`storeFiles` of the job kinds writes them flat), with their sizes. */
export async function artefactFiles(blobs: BlobStore, prefix: string): Promise<Array<{ name: string; size: number }>> {
  const dir = blobs.pathOf(prefix.replace(/\/+$/, ''));
  let entries;
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: Array<{ name: string; size: number }> = [];
  // Temporary files of a write in progress (`.tmp-*`) are not artefacts.
  for (const e of entries) if (e.isFile() && !e.name.startsWith('.')) out.push({ name: e.name, size: (await fsp.stat(path.join(dir, e.name))).size });
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Joins the training's job for its live state. */
export function withJob(knex: Knex, table: string) {
  return knex(`${table} as t`)
    .leftJoin('jobs as j', 'j.id', 't.job_id')
    .select('t.*', 'j.state as job_state', 'j.progress as job_progress', 'j.metrics as job_metrics', 'j.error as job_error', 'j.started_at as job_started_at', 'j.ended_at as job_ended_at', 'j.worker_id as job_worker_id');
}

/** Config of a record (for callers that need the stop conditions). */
export function configOf(row: Row): TrainingConfig {
  return parseJson<TrainingConfig>(row.config, { stopConditions: { system: true }, hyperparameters: {} });
}
