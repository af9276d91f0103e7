/**
 * The policy area's training kind (spec workflow §3 "Policy"): `trainPolicy/*`, records in
 * `policies` (the table deploy reads), trained by `modelling.trainPolicy`; the model list `policy/*`.
 */
import { MODELLING_JOB_KINDS, trainPolicySchema, type TrainPolicyRequest } from '@decisio/domain';
import type { TrainingDescriptor } from '../training-kinds';
import { policyJobKind } from './policy-job';
import { checkTraining } from '../training-rules';

export const policyTraining: TrainingDescriptor<TrainPolicyRequest> = {
  kind: 'policy',
  area: 'trainPolicy',
  table: 'policies',
  jobKind: MODELLING_JOB_KINDS.policy,
  job: policyJobKind,
  createSchema: trainPolicySchema,
  deleteAck: true,
  restorable: true,
  modelArea: 'policy',
  async prepare({ user, scope, checks, locale }, input) {
    const config = checkTraining(input);
    await checks.resolveAutoSearch(user, config, input, 'policy');
    // The algorithm depends on the graph only: refused (or taken) before the records are read.
    const algorithm = await checks.policyAlgorithm(input.solutionId, input.algorithm, input.hyperparameters);
    await checks.uniqueName(scope, 'policies', input.name);
    await checks.environmentAndReward(input, locale);
    await checks.checkMemory(0, input.workerId);
    return { algorithm, simulator_id: input.simulatorId, objective_id: input.objectiveId, config: JSON.stringify(await checks.sealGit(config)), reward: null, artifact_key: null };
  },
};
