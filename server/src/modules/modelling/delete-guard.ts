/**
 * The delete guard of the modelling module: registered by the composition root (`app.ts`).
 */
import type { DeleteGuard } from '../projects/access';
import { ACTIVE_STATES } from './training-rules';

/** Refuses deleting a project or solution while one of its modelling jobs waits or runs. */
export const modellingDeleteGuard: DeleteGuard = async (knex, target) => {
  for (const [table, col] of [
    ['schemes', 'process_job_id'],
    ['simulators', 'job_id'],
    ['policies', 'job_id'],
    ['parameter_searches', 'job_id'],
    ['deductions', 'job_id'],
  ] as const) {
    const q = knex(`${table} as t`).join('jobs as j', 'j.id', `t.${col}`).where('t.project_id', target.projectId).whereIn('j.state', [...ACTIVE_STATES]);
    if (target.solutionId) q.andWhere('t.solution_id', target.solutionId);
    if (await q.first('t.id')) return 'projectHasTraining';
  }
  return null;
};
