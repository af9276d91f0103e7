import type { Knex } from 'knex';
import { AppError, type ErrorCodeName } from '@decisio/domain';
import type { ServerCallUser } from '@decisio/sdk-plugin/server';

/**
 * Project access for every module that works inside a project (datasets, modelling, deploy...).
 * A user holds `owner` on the projects they created, and `edit` or `view` where the owner
 * granted it to them or to their organisation (`project_permissions`); the strongest grant wins.
 * Projects of another tenant, deleted ones and unknown ids all answer `projectNotFound`, so ids
 * are not revealed across tenants or to users without any right.
 */
export type ProjectRight = 'view' | 'edit' | 'owner';

export interface ProjectRef {
  id: string;
  tenantId: string;
  ownerId: string;
  name: string;
}

export interface SolutionRef {
  id: string;
  projectId: string;
  name: string;
  /** `data_driven` or `knowledge_mixin`. */
  dataType: string;
  /** `policy_search` or `parameter_tuning`. */
  goalType: string;
}

const RANK: Record<ProjectRight, number> = { view: 1, edit: 2, owner: 3 };

/** True when `have` includes `need` (owner > edit > view). */
export function rightCovers(have: ProjectRight, need: ProjectRight): boolean {
  return RANK[have] >= RANK[need];
}

/** The strongest right `user` holds on a (live, same-tenant) project, or `null`. */
export async function projectRightOf(
  knex: Knex,
  user: Pick<ServerCallUser, 'id' | 'tenantId'>,
  project: { id: string; ownerId: string },
): Promise<ProjectRight | null> {
  if (project.ownerId === user.id) return 'owner';
  const me = await knex('users').where('id', user.id).first('org_id');
  const orgId: string | null = me?.org_id ?? null;
  const rows: { permission: string }[] = await knex('project_permissions')
    .where('project_id', project.id)
    .andWhere((q) => {
      q.where({ subject_type: 'user', subject_id: user.id });
      if (orgId) q.orWhere({ subject_type: 'org', subject_id: orgId });
    })
    .select('permission');
  let best: ProjectRight | null = null;
  for (const r of rows) {
    const right = r.permission === 'edit' ? 'edit' : 'view';
    if (!best || RANK[right] > RANK[best]) best = right;
  }
  return best;
}

/** Throws AppError('projectNotFound') when missing/deleted/other tenant, AppError('projectNoRight') without the right. */
export async function assertProjectAccess(
  knex: Knex,
  user: ServerCallUser,
  projectId: string,
  need: ProjectRight,
): Promise<{ project: ProjectRef; right: ProjectRight }> {
  const row = await knex('projects')
    .where({ id: projectId, tenant_id: user.tenantId })
    .whereNull('deleted_at')
    .first('id', 'tenant_id', 'owner_id', 'name');
  if (!row) throw new AppError('projectNotFound');
  const project: ProjectRef = { id: row.id, tenantId: row.tenant_id, ownerId: row.owner_id, name: row.name };
  const right = await projectRightOf(knex, user, project);
  if (!right) throw new AppError('projectNotFound');
  if (!rightCovers(right, need)) throw new AppError('projectNoRight');
  return { project, right };
}

/** Same, through a solution; AppError('solutionNotFound') when missing. */
export async function assertSolutionAccess(
  knex: Knex,
  user: ServerCallUser,
  solutionId: string,
  need: ProjectRight,
): Promise<{ project: ProjectRef; solution: SolutionRef; right: ProjectRight }> {
  const row = await knex('solutions')
    .where({ id: solutionId, tenant_id: user.tenantId })
    .whereNull('deleted_at')
    .first('id', 'project_id', 'name', 'data_type', 'goal_type');
  if (!row) throw new AppError('solutionNotFound');
  const { project, right } = await assertProjectAccess(knex, user, row.project_id, need);
  const solution: SolutionRef = {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    dataType: row.data_type,
    goalType: row.goal_type,
  };
  return { project, solution, right };
}

/** Where a record lives: the solution (and project) the caller may reach. */
export interface Scope {
  project: ProjectRef;
  solution: SolutionRef;
}

/** Checks the caller's right on a solution (`solutionNotFound`, `projectNotFound`, `projectNoRight`). */
export async function solutionScope(knex: Knex, user: ServerCallUser, solutionId: string, need: ProjectRight): Promise<Scope> {
  const { project, solution } = await assertSolutionAccess(knex, user, solutionId, need);
  return { project, solution };
}

/**
 * Loads a record of `table` by id within the caller's tenant and checks the right on its
 * solution; `notFound` when missing or of another tenant.
 */
export async function recordInScope(knex: Knex, user: ServerCallUser, table: string, id: string, need: ProjectRight, notFound: ErrorCodeName): Promise<{ row: Record<string, any>; scope: Scope }> {
  const row = await knex(table).where({ id, tenant_id: user.tenantId }).first();
  if (!row) throw new AppError(notFound);
  const scope = await solutionScope(knex, user, row.solution_id, need);
  return { row, scope };
}

/** Checks other modules add (running jobs, online services): return an error name to refuse deleting a project/solution. */
export type DeleteGuard = (knex: Knex, target: { projectId: string; solutionId?: string }) => Promise<ErrorCodeName | null>;

/**
 * The guards consulted before a project or solution is deleted, in the order they were
 * registered; the first refusal wins. A guard should answer `projectHasTraining` while
 * trainings run or policies serve online decisions. The composition root (`app.ts`) registers
 * each module's guard with {@link registerDeleteGuard} at start-up; nothing registers itself
 * by being imported.
 */
export const deleteGuards: DeleteGuard[] = [];

/** Adds a guard once (a second registration of the same function is a no-op); returns how to take it back. */
export function registerDeleteGuard(guard: DeleteGuard): () => void {
  if (!deleteGuards.includes(guard)) deleteGuards.push(guard);
  return () => {
    const i = deleteGuards.indexOf(guard);
    if (i >= 0) deleteGuards.splice(i, 1);
  };
}

/** Runs the delete guards in order; resolves with the first refusal, or `null`. */
export async function deleteRefusal(knex: Knex, target: { projectId: string; solutionId?: string }): Promise<ErrorCodeName | null> {
  for (const guard of deleteGuards) {
    const refusal = await guard(knex, target);
    if (refusal) return refusal;
  }
  return null;
}
