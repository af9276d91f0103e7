/**
 * The tuning area's training kind (spec workflow §3 "Parameter"): `trainParameter/*`, records in
 * `parameter_searches`, run by `modelling.trainParameter`.
 */
import { AppError, MODELLING_JOB_KINDS, MODELLING_LIMITS, trainParameterSchema, type TrainParameterRequest } from '@decisio/domain';
import type { TrainingDescriptor } from '../training-kinds';
import { tuningJobKind } from './tuning-job';
import { checkTraining } from '../training-rules';

export const tuningTraining: TrainingDescriptor<TrainParameterRequest> = {
  kind: 'parameter',
  area: 'trainParameter',
  table: 'parameter_searches',
  jobKind: MODELLING_JOB_KINDS.parameter,
  job: tuningJobKind,
  createSchema: trainParameterSchema,
  deleteAck: true,
  restorable: false,
  async prepare({ user, scope, checks, locale }, input) {
    const config = checkTraining(input);
    if (input.algorithm === 'zoopt') {
      const trials = config.stopConditions.searchCount ?? (typeof input.hyperparameters['trials'] === 'number' ? (input.hyperparameters['trials'] as number) : undefined);
      if (trials !== undefined && trials < MODELLING_LIMITS.zooptMinTrials) throw new AppError('trainZooptTrials', { 'stopConditions.searchCount': 'validation.invalid' });
    }
    await checks.uniqueName(scope, 'parameter_searches', input.name);
    await checks.environmentAndReward(input, locale);
    const datasetId = await checks.initialDataset(user, scope, input.datasetId);
    await checks.checkMemory(0, input.workerId);
    return { algorithm: input.algorithm, simulator_id: input.simulatorId, objective_id: input.objectiveId, dataset_id: datasetId, config: JSON.stringify(await checks.sealGit(config)), reward: null, result: null };
  },
};
