/**
 * The deduction area's kinds (spec workflow §3 "Simulation" and "Decision"): `simulation/*` and
 * `decision/*`, records in `deductions` (column `kind`), run by `modelling.simulation` and
 * `modelling.decision`.
 */
import { AppError, deductionSchema, MODELLING_JOB_KINDS, type DeductionRequest } from '@decisio/domain';
import { nameUsed } from '../training-rules';
import type { PrepareContext, TrainingDescriptor } from '../training-kinds';
import { deductionJobKind } from './deduction-job';

async function prepareDeduction(kind: 'simulation' | 'decision', { user, scope, checks, knex, locale }: PrepareContext, input: DeductionRequest) {
  if (await nameUsed(knex, 'deductions', scope.project.id, input.name, { kind })) throw new AppError('trainNameUsed', { name: 'validation.invalid' });
  await checks.environmentAndReward(input, locale);
  if (kind === 'decision') {
    if (!input.policyId) throw new AppError('paramInvalid', { policyId: 'validation.required' });
    const pol = await knex('policies').where({ id: input.policyId, solution_id: input.solutionId }).first();
    if (!pol) throw new AppError('policyNotFound');
    if (!pol.artifact_key) throw new AppError('dataProcessUnfinished', { policyId: 'validation.invalid' });
    // Without a reward of its own, the deduction scores with the policy's: it must be usable too.
    if (!input.objectiveId) await checks.usableReward(input.solutionId, String(pol.objective_id), locale);
  }
  const datasetId = await checks.initialDataset(user, scope, input.datasetId);
  return {
    kind,
    description: input.description ?? null,
    simulator_id: input.simulatorId,
    policy_id: kind === 'decision' ? (input.policyId ?? null) : null,
    objective_id: input.objectiveId ?? null,
    step_size: input.stepSize,
    dataset_id: datasetId,
    score: null,
    result: null,
  };
}

export const simulationDeduction: TrainingDescriptor<DeductionRequest> = {
  kind: 'simulation',
  area: 'simulation',
  table: 'deductions',
  rowKind: 'simulation',
  jobKind: MODELLING_JOB_KINDS.simulation,
  job: (env) => deductionJobKind('simulation', env),
  createSchema: deductionSchema,
  deleteAck: false,
  restorable: false,
  prepare: (ctx, input) => prepareDeduction('simulation', ctx, input),
};

export const decisionDeduction: TrainingDescriptor<DeductionRequest> = {
  kind: 'decision',
  area: 'decision',
  table: 'deductions',
  rowKind: 'decision',
  jobKind: MODELLING_JOB_KINDS.decision,
  job: (env) => deductionJobKind('decision', env),
  createSchema: deductionSchema,
  deleteAck: false,
  restorable: false,
  prepare: (ctx, input) => prepareDeduction('decision', ctx, input),
};

