/**
 * The environment area's training kind (spec workflow §3 "Environment"): `trainSimulator/*`,
 * records in `simulators`, trained by `modelling.trainSimulator`; the model list `simulator/*`.
 */
import { AppError, MODELLING_JOB_KINDS, trainSimulatorSchema, type TrainSimulatorRequest } from '@decisio/domain';
import type { TrainingDescriptor } from '../training-kinds';
import { environmentJobKind } from './environment-job';
import { checkTraining } from '../training-rules';

export const environmentTraining: TrainingDescriptor<TrainSimulatorRequest> = {
  kind: 'environment',
  area: 'trainSimulator',
  table: 'simulators',
  jobKind: MODELLING_JOB_KINDS.environment,
  job: environmentJobKind,
  createSchema: trainSimulatorSchema,
  deleteAck: true,
  restorable: true,
  modelArea: 'simulator',
  async prepare({ user, scope, checks, knex, blobSize }, input) {
    const config = checkTraining(input);
    await checks.resolveAutoSearch(user, config, input, 'environment');
    await checks.uniqueName(scope, 'simulators', input.name);
    // The scheme's data processing must be done; the memory rule reads its processed data.
    const scheme = await knex('schemes').where({ id: input.schemeId, solution_id: input.solutionId }).first();
    if (!scheme) throw new AppError('schemeNotFound');
    if (scheme.process_state !== 'completed' || !scheme.processed_key) throw new AppError('dataProcessUnfinished');
    await checks.checkMemory(await blobSize(String(scheme.processed_key)), input.workerId);
    return { algorithm: input.algorithm, scheme_id: input.schemeId, config: JSON.stringify(await checks.sealGit(config)), score: null, artifact_key: null };
  },
};
