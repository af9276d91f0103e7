/**
 * Deletion guards of the deploy area: a project or solution with a service online (running,
 * starting or deploying) cannot be deleted, nor can a policy with a live (not deleted) service.
 */
import type { Knex } from 'knex';
import { registerDeleteGuard } from '../projects/access';

const ONLINE = ['running', 'starting', 'deploying'];

/** True when a live service (any state, not deleted) uses the policy: the policy must not be deleted (`deployPolicyUsed`). */
export async function policyDeployed(knex: Knex, policyId: string): Promise<boolean> {
  return Boolean(await knex('model_services').where('policy_id', policyId).whereNull('deleted_at').first('id'));
}

/** The project/solution delete guard (`deployPolicyUsed` while a service is online). */
export async function onlineServiceGuard(knex: Knex, target: { projectId: string; solutionId?: string }): Promise<'deployPolicyUsed' | null> {
  const q = knex('model_services').where('project_id', target.projectId).whereNull('deleted_at').whereIn('status', ONLINE);
  if (target.solutionId) q.andWhere('solution_id', target.solutionId);
  return (await q.first('id')) ? 'deployPolicyUsed' : null;
}

/** Adds the guard to the projects module's list (once per process: `registerDeleteGuard` keeps one of each). */
export function registerDeployGuards(): void {
  registerDeleteGuard(onlineServiceGuard);
}
