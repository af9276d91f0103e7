import type { Router } from '@koa/router';
import { z } from 'zod';
import {
  deleteRecordsSchema,
  getTableCorrelationSchema,
  hyperparameterEditSchema,
  hyperparameterSchema,
  objectiveEditSchema,
  objectiveSchema,
  recordIdSchema,
  schemeSchema,
  setPatternSchema,
  setTableCorrelationSchema,
  solutionRefSchema,
  trainDisplaySchema,
  trainJobSchema,
  trainListSchema,
  trainLogSchema,
  trainUpdateSchema,
} from '@decisio/domain';
import type { AppMiddleware, AppState } from '../../http/context';
import { postCalls, type RouteKit } from '../../http/route';
import type { ModellingDeps } from './common';
import { rewardTryRoute } from './reward-try';
import { ModellingRecords } from './records';
import { TensorBoards, tensorBoardDownloadRoute } from './tensorboard';
import { TrainCalls } from './train';
import type { TrainingKinds } from './training-kinds';
import { Trainings, trainingRoutes } from './trainings';

export { modellingJobKinds } from './engine/kinds';

const hyperListSchema = z.object({ trainType: z.enum(['environment', 'policy', 'parameter']).optional() });
const overviewListSchema = z.object({ limit: z.number().int().min(1).max(100).optional(), running: z.boolean().optional() });

/** What `modellingRoutes` hands back to the composition root. */
export interface ModellingModule {
  /** The TensorBoard proxy (`/api/tensorboard/<jobId>/...`): mount ahead of the JSON body parser. */
  tensorBoardProxy: AppMiddleware;
  /** Ends the TensorBoard processes (server shutdown). */
  close(): Promise<void>;
  /** The training records and their jobs (the scheduled policy updates train through them). */
  trainings: Trainings;
}

/**
 * The modelling calls (spec workflow §7): solution pattern and table correlation, scheme,
 * objective, hyperparameter, simulator, policy, simulation, decision, trainSimulator,
 * trainPolicy, trainParameter, train, virtualMachine, atmVersion, overview (the live events
 * stream `GET train/events` is the job contract's, `modules/jobs`). The calls of each kind of
 * training come from its descriptor in `kinds` (`trainingRoutes` of `trainings.ts`), registered at start-up
 * by `app.ts`. Every call is `POST` with a JSON body, authenticated and
 * tenant scoped; rights are checked on the record's project (view to read, edit to change).
 */
export function modellingRoutes(router: Router<AppState>, kit: RouteKit, deps: ModellingDeps, kinds: TrainingKinds): ModellingModule {
  const records = new ModellingRecords(deps);
  const trainings = new Trainings(deps);
  const train = new TrainCalls(deps, trainings);

  const post = postCalls(router, kit);

  // solution
  post('/solution/getPattern', solutionRefSchema, (i, u) => records.getPattern(u, i.solutionId));
  post('/solution/setPattern', setPatternSchema, (i, u, ctx) => records.setPattern(u, i, ctx.state.locale));
  post('/solution/getTableCorrelation', getTableCorrelationSchema, (i, u) => records.getTableCorrelation(u, i.solutionId, i.withTable));
  post('/solution/setTableCorrelation', setTableCorrelationSchema, (i, u, ctx) => records.setTableCorrelation(u, i, ctx.state.locale));

  // scheme
  const schemeEdit = schemeSchema.extend({ id: recordIdSchema.shape.id });
  post('/scheme/create', schemeSchema, (i, u, ctx) => records.createScheme(u, i, ctx.state.locale));
  post('/scheme/set', schemeEdit, (i, u, ctx) => records.setScheme(u, i.id, i, ctx.state.locale));
  post('/scheme/edit', schemeEdit, (i, u, ctx) => records.setScheme(u, i.id, i, ctx.state.locale));
  post('/scheme/get', recordIdSchema, (i, u, ctx) => records.getScheme(u, i.id, ctx.state.locale));
  post('/scheme/list', solutionRefSchema, (i, u, ctx) => records.listSchemes(u, i.solutionId, ctx.state.locale));
  post('/scheme/delete', recordIdSchema, (i, u) => records.deleteScheme(u, i.id));
  post('/scheme/schemeDataProcess', recordIdSchema, (i, u) => records.processScheme(u, i.id));

  // objective (reward)
  post('/objective/create', objectiveSchema, (i, u, ctx) => records.createObjective(u, i, ctx.state.locale));
  post('/objective/edit', objectiveEditSchema, (i, u, ctx) => records.editObjective(u, i, ctx.state.locale));
  post('/objective/detail', recordIdSchema, (i, u) => records.objectiveDetail(u, i.id));
  post('/objective/list', solutionRefSchema, (i, u) => records.listObjectives(u, i.solutionId));
  post('/objective/delete', recordIdSchema, (i, u) => records.deleteObjective(u, i.id));
  rewardTryRoute(router, kit, deps);

  // hyperparameter sets
  post('/hyperparameter/create', hyperparameterSchema, (i, u, ctx) => records.createHyperparameters(u, i, ctx.state.locale));
  post('/hyperparameter/edit', hyperparameterEditSchema, (i, u, ctx) => records.editHyperparameters(u, i, ctx.state.locale));
  post('/hyperparameter/delete', recordIdSchema, (i, u) => records.deleteHyperparameters(u, i.id));
  post('/hyperparameter/list', hyperListSchema, (i, u) => records.listHyperparameters(u, i.trainType));
  post('/hyperparameter/get', recordIdSchema, (i, u) => records.getHyperparameters(u, i.id));
  post('/hyperparameter/createTrainParams', recordIdSchema, (i, u) => records.trainParams(u, i.id));

  // every kind of training and deduction (the trainings core, one descriptor per kind)
  trainingRoutes(post, kinds, trainings);
  post('/simulation/getSimulationTrainData', recordIdSchema, (i, u) => trainings.get(u, 'deductions', i.id, 'simulation'));

  const updatesSchema = recordIdSchema.extend({ kind: z.enum(['environment', 'policy']), page: z.number().int().min(1).default(1), pageSize: z.number().int().min(1).max(100).default(20) });
  const tableOf = (k: 'environment' | 'policy') => (k === 'environment' ? 'simulators' : 'policies');
  post('/train/createTrainUpdate', trainUpdateSchema, (i, u) => trainings.update(u, tableOf(i.kind), i.id, i));
  post('/train/getTrainUpdateListPage', updatesSchema, (i, u) => trainings.runs(u, tableOf(i.kind), i.id, i.page, i.pageSize));

  // train/*
  // `step`: the tensor summaries of that breakpoint (debug mode) instead of the latest.
  // `afterPoint`, `fromStep`, `names`: the range of the metrics points (`job_metrics` rows).
  post('/train/getTrainDisplayDataList', trainDisplaySchema, (i, u) => train.displayData(u, i.jobId, i.step, { afterPoint: i.afterPoint, fromStep: i.fromStep, names: i.names }));
  post('/train/stopTrain', trainJobSchema, (i, u) => train.stop(u, i.jobId));
  const picSchema = recordIdSchema.extend({ trajectory: z.number().int().min(0).default(0), horizon: z.number().int().min(1).max(10_000).default(50) });
  post('/train/getPicBySimulatorNum', picSchema, (i, u) => train.simulatorPictures(u, i.id, i.trajectory, i.horizon));
  post('/train/skipBreakpoint', trainJobSchema, (i, u) => train.skipBreakpoint(u, i.jobId));
  post('/train/getTrainLog', trainLogSchema, (i, u) => train.log(u, i.jobId, i.afterId, i.limit));
  post('/train/getTrainLogList', trainJobSchema, (i, u) => train.logList(u, i.jobId));
  post('/train/getTrainProcessList', solutionRefSchema, (i, u) => train.processList(u, i.solutionId));
  post('/train/getAllTrainList', trainListSchema, (i, u) => train.allList(u, i));
  post('/train/getRunningModelPolicyList', solutionRefSchema, (i, u) => train.runningPolicies(u, i.solutionId));
  post('/train/deleteRecords', deleteRecordsSchema, (i, u) => train.deleteRecords(u, i.jobIds, i.acknowledged));
  const tensorBoards = new TensorBoards(deps, train);
  trainings.onDeleted((tenantId, jobIds) => tensorBoards.forget(tenantId, jobIds));
  deps.deletedJobs?.listen((jobIds) => tensorBoards.stopJobs(jobIds));
  post('/train/reStartTensorBoard', trainJobSchema, (i, u) => tensorBoards.restart(u, i.jobId));
  post('/train/destroyTensorBoard', trainJobSchema, (i, u) => tensorBoards.destroy(u, i.jobId));
  tensorBoardDownloadRoute(router, kit, tensorBoards);

  // machines and engine versions
  post('/virtualMachine/getVirtualMachineList', z.object({}).loose(), (_i, u) => train.virtualMachines(u));
  post('/atmVersion/getAtmVersionList', z.object({}).loose(), (_i, u) => train.engineVersions(u));

  // overview (dashboard)
  post('/overview/getTrainingList', overviewListSchema, (i, u) => train.overviewTrainings(u, i.limit, i.running));
  post('/overview/getOverall', z.object({}).loose(), (_i, u) => train.overviewOverall(u));
  post('/overview/getResource', z.object({}).loose(), (_i, u) => train.overviewResource(u));
  post('/overview/getStatistics', z.object({}).loose(), (_i, u) => train.overviewStatistics(u));

  // One state per training: its job's; the records' `state` column mirrors it.
  trainings.keepStatesInStep();
  return { tensorBoardProxy: tensorBoards.proxy(kit), close: () => tensorBoards.close(), trainings };
}
