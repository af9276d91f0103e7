/**
 * The trainings kit's calls (server modules of the modelling areas, spec workflow §7): the
 * training records of every kind (environment, policy, parameter search, deductions) and `train/*`
 * (curves, logs, stop, restore, TensorBoard, breakpoints), plus the read lists the training forms
 * offer (schemes, rewards, hyperparameter sets, datasets, workers). The area plugins add their own
 * writes (scheme, reward, hyperparameter set) with the same tags, so a save refreshes these lists.
 */
import type { Dataset, DeductionRequest, EnvironmentNodeScores, HyperparameterRequest, TrainParameterRequest, TrainPolicyRequest, TrainSimulatorRequest } from '@decisio/domain';
import { definePluginApi, type PluginEndpointBuilder } from '../api';

/** A training record as the server presents it (`presentTraining`). */
export interface TrainingRow {
  id: string;
  code: string;
  name: string;
  state: string;
  progress: number | null;
  durationMs: number | null;
  jobId?: string | null;
  algorithm?: string;
  score?: number | null;
  reward?: number | null;
  stepSize?: number;
  /** Deductions and parameter searches: the chosen initial (search) dataset, null for the environment's data. */
  datasetId?: string | null;
  simulatorId?: string | null;
  objectiveId?: string | null;
  policyId?: string | null;
  schemeId?: string | null;
  metrics?: Record<string, number>;
  error?: string | null;
  config?: Record<string, unknown> | null;
  result?: Record<string, unknown> | null;
  /** Environment trainings: the per-node validation scores measured when the training ended (null before, or for older trainings). */
  nodeScores?: EnvironmentNodeScores | null;
  startTime?: string | null;
  endTime?: string | null;
  createdAt?: string;
}

export interface Rows<T> {
  rows: T[];
  total: number;
}

export interface SchemeRow {
  id: string;
  name: string;
  description?: string | null;
  period: string;
  startTime: string;
  endTime: string;
  data: Record<string, unknown> | null;
  processState: string;
  processJobId?: string | null;
  rows?: number | null;
  createdAt?: string;
}

export interface ObjectiveRow {
  id: string;
  name: string;
  description?: string | null;
  files: Record<string, string> | null;
  /** The check when saved: `checked`, `broken` (cannot be used for training), `unchecked` (could not run: no data yet); null before the check existed. */
  checkState?: 'checked' | 'broken' | 'unchecked' | null;
  checkMessage?: string | null;
  createdAt?: string;
  updatedAt?: string;
  policyList?: { id: string; name: string }[];
}

/** Rewards a training, search or deduction may use: not marked broken. */
export const usableRewards = <T extends Pick<ObjectiveRow, 'checkState'>>(rows: readonly T[]): T[] => rows.filter((r) => r.checkState !== 'broken');

export interface HyperparameterRow {
  id: string;
  name: string;
  description?: string | null;
  trainType: 'environment' | 'policy' | 'parameter';
  algorithm: string;
  params: HyperparameterRequest['params'] | null;
  createdAt?: string;
  updatedAt?: string;
}

/** A worker of `virtualMachine/getVirtualMachineList`: cores and memory are the host's figures, shown to system roles only (null for others). */
export interface WorkerRow {
  id: string;
  name: string;
  cores: number | null;
  memory: number | null;
  gpuAdapter?: string | null;
  /** The engine version the worker runs (a project of a default algorithm image version trains only on workers of it). */
  engineVersion?: string;
  /** The caller's tenant's running jobs on it (every tenant's for system roles). */
  runningJobs: number;
  status: string;
}

export interface DisplayData {
  jobId: string;
  state: string;
  progress: number | null;
  points: Array<{ id: number; time: string | null } & Record<string, number | string | null>>;
  /** Debug mode: the breakpoint steps with a tensor summary, in the order they were kept (`step` of the call picks one). */
  tensorSteps?: number[];
}

/** One trajectory rolled in a trained environment against the data (per node: rows of values per step). */
export interface Rollout {
  id: string;
  trajectory: number;
  trajectories: number;
  horizon: number;
  nodes: Record<string, { predicted: number[][]; real: number[][] }>;
}

export interface LogPage {
  jobId: string;
  state: string;
  error: string | null;
  items: { id: number; level: string; message: string; time: string }[];
  nextAfterId: number | null;
}

/** `objective/tryReward`: the reward run on a sample of the solution's data (server `reward-try.ts`). */
export type TryRewardReply =
  | {
      ok: true;
      rows: number;
      source: { kind: 'scheme' | 'table'; name: string };
      nodes: string[];
      summary: { count: number; mean: number; std: number; min: number; max: number; median: number };
      histogram: { edges: number[]; counts: number[] };
    }
  | { ok: false; error: { code: string; message: string; file?: string; line?: number } };

/** `train/reStartTensorBoard`: the job's TensorBoard behind the server, or where to download its event file. */
export type TensorBoardReply = { jobId: string; running: true; url: string; downloadUrl: string } | { jobId: string; running: false; reason: 'notInstalled'; downloadUrl: string };

/** Which list/get/delete calls a training area uses. */
export type TrainingArea = 'trainSimulator' | 'trainPolicy' | 'trainParameter' | 'simulation' | 'decision';

export const TRAINING_TAGS = ['Scheme', 'Objective', 'Hyper', 'Training', 'TrainRun'] as const;
type Ref = { solutionId: string };

export const trainingsEndpoints = (build: PluginEndpointBuilder) => ({
  'trainings/schemes': build.query<Rows<SchemeRow>, Ref>({ query: (body) => ({ url: 'scheme/list', body }), providesTags: ['Scheme'] }),

  'trainings/objectives': build.query<Rows<ObjectiveRow>, Ref>({ query: (body) => ({ url: 'objective/list', body }), providesTags: ['Objective'] }),

  'trainings/hypers': build.query<Rows<HyperparameterRow>, { trainType?: HyperparameterRow['trainType'] }>({ query: (body) => ({ url: 'hyperparameter/list', body }), providesTags: ['Hyper'] }),
  'trainings/hyperTrainParams': build.mutation<{ trainType: string; algorithm: string; hyperparameters: Record<string, unknown> }, { id: string }>({ query: (body) => ({ url: 'hyperparameter/createTrainParams', body }) }),

  'trainings/trainings': build.query<Rows<TrainingRow>, Ref & { area: TrainingArea }>({
    query: ({ area, solutionId }) => ({ url: `${area}/list`, body: { solutionId } }),
    providesTags: ['Training'],
  }),
  'trainings/training': build.query<TrainingRow, { area: TrainingArea; id: string }>({
    query: ({ area, id }) => ({ url: `${area}/get`, body: { id } }),
    providesTags: ['Training'],
  }),
  'trainings/trainingDelete': build.mutation<unknown, { area: TrainingArea; id: string; acknowledged: boolean }>({
    query: ({ area, ...body }) => ({ url: `${area}/delete`, body: area === 'simulation' || area === 'decision' ? { id: body.id } : body }),
    invalidatesTags: ['Training'],
  }),
  'trainings/trainingCopy': build.mutation<unknown, { area: 'simulator' | 'policy'; id: string }>({ query: ({ area, id }) => ({ url: `${area}/copy`, body: { id } }), invalidatesTags: ['Training'] }),
  'trainings/trainSimulator': build.mutation<TrainingRow, TrainSimulatorRequest>({ query: (body) => ({ url: 'trainSimulator/create', body }), invalidatesTags: ['Training'] }),
  'trainings/trainPolicy': build.mutation<TrainingRow, TrainPolicyRequest>({ query: (body) => ({ url: 'trainPolicy/create', body }), invalidatesTags: ['Training'] }),
  'trainings/trainParameter': build.mutation<TrainingRow, TrainParameterRequest>({ query: (body) => ({ url: 'trainParameter/create', body }), invalidatesTags: ['Training'] }),
  'trainings/deduction': build.mutation<TrainingRow, DeductionRequest & { kind: 'simulation' | 'decision' }>({
    query: ({ kind, ...body }) => ({ url: `${kind}/create`, body }),
    invalidatesTags: ['Training'],
  }),

  'trainings/restore': build.mutation<unknown, { area: 'trainSimulator' | 'trainPolicy'; id: string }>({ query: ({ area, id }) => ({ url: `${area}/restore`, body: { id } }), invalidatesTags: ['Training'] }),
  'trainings/rollout': build.query<Rollout, { id: string; trajectory: number; horizon?: number }>({ query: (body) => ({ url: 'train/getPicBySimulatorNum', body }) }),
  'trainings/display': build.query<DisplayData, { jobId: string; step?: number }>({ query: (body) => ({ url: 'train/getTrainDisplayDataList', body }) }),
  'trainings/log': build.query<LogPage, { jobId: string; afterId?: number; limit?: number }>({ query: (body) => ({ url: 'train/getTrainLog', body }) }),
  'trainings/stop': build.mutation<{ jobId: string; state: string }, { jobId: string }>({ query: (body) => ({ url: 'train/stopTrain', body }), invalidatesTags: ['Training'] }),
  'trainings/pattern': build.query<{ graph: { nodes: { name: string; fields?: { name: string }[] }[] } | null }, Ref>({ query: (body) => ({ url: 'solution/getPattern', body }) }),
  'trainings/tensorBoardStart': build.mutation<TensorBoardReply, { jobId: string }>({ query: (body) => ({ url: 'train/reStartTensorBoard', body }) }),
  'trainings/tensorBoardStop': build.mutation<{ jobId: string; running: false }, { jobId: string }>({ query: (body) => ({ url: 'train/destroyTensorBoard', body }) }),
  'trainings/skip': build.mutation<{ jobId: string; state: string }, { jobId: string }>({ query: (body) => ({ url: 'train/skipBreakpoint', body }), invalidatesTags: ['Training'] }),
  /** The project's datasets (initial datasets of deductions and searches). */
  /** The solutions of a project (pages that work in one: deploy, reports, business decision, policy update). */
  'trainings/solutions': build.query<Array<{ solutionId: string; name: string }>, { projectId: string }>({ query: (body) => ({ url: 'solution/getSolutionList', body }) }),
  /** The policies of a solution (`policy/list`); a policy update refreshes them (`TrainRun` of the solution). */
  'trainings/policies': build.query<Rows<TrainingRow>, Ref>({ query: (body) => ({ url: 'policy/list', body }), providesTags: (_r, _e, a) => ['Training', { type: 'TrainRun' as const, id: a.solutionId }] }),
  'trainings/datasets': build.query<{ rows: Dataset[]; total: number }, { projectId: string }>({ query: (body) => ({ url: 'table/list', body: { ...body, page: 1, pageSize: 100 } }) }),
  'trainings/workers': build.query<{ rows: WorkerRow[] }, void>({ query: () => ({ url: 'virtualMachine/getVirtualMachineList', body: {} }) }),
  /** The project's default algorithm image version (`imageVersion` of `project/getProject`): its trainings run only on workers of it. */
  'trainings/project': build.query<{ projectId: string; imageVersion: string | null }, { projectId: string }>({
    query: (body) => ({ url: 'project/getProject', body }),
    providesTags: (_r, _e, a) => [{ type: 'Project' as const, id: a.projectId }],
  }),
});

// `Project`: the projects plugin's edits of a project invalidate its version here too.
export const trainingsApi = definePluginApi('trainings', trainingsEndpoints, { tagTypes: [...TRAINING_TAGS, 'Project'] });
