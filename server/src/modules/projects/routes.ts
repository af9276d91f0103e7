import type { Router } from '@koa/router';
import {
  activityRequestSchema,
  collaboratorCandidatesRequestSchema,
  createProjectPermissionsRequestSchema,
  createProjectRequestSchema,
  deleteProjectPermissionsRequestSchema,
  editProjectRequestSchema,
  projectIdRequestSchema,
  projectListRequestSchema,
  saveShareSettingsRequestSchema,
  setFavouriteRequestSchema,
  sharedModuleRequestSchema,
  sharedProjectRequestSchema,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { SolutionsService } from '../solutions/service';
import type { ProjectsService } from './service';

/**
 * Project calls (`project/*`) and the recent-activity feed (`message/getActivity`). Every call
 * needs a signed-in user of an existing tenant; rights on the project are checked per call
 * (owner, edit or view; see `policy.ts`). Changes run in one transaction with their activity row.
 */
export function projectsRoutes(
  router: Router<AppState>,
  kit: RouteKit,
  { projects, solutions }: { projects: ProjectsService; solutions: SolutionsService },
): void {
  const user = (ctx: AppContext) => ctx.state.user!;
  const read = [kit.auth, kit.tenant] as const;
  const write = (body: ReturnType<typeof kit.validate>) => [kit.auth, kit.tenant, body, kit.transaction] as const;

  const listQuery = kit.validate(projectListRequestSchema, 'query');
  const listBody = kit.validate(projectListRequestSchema);
  router.get('/project/getProjectList', ...read, listQuery, reply((ctx) => projects.list(user(ctx), listQuery.input(ctx))));
  router.post('/project/getProjectList', ...read, listBody, reply((ctx) => projects.list(user(ctx), listBody.input(ctx))));

  const idBody = kit.validate(projectIdRequestSchema);
  router.post('/project/getProject', ...read, idBody, reply((ctx) => projects.get(user(ctx), idBody.input(ctx).projectId)));

  const createBody = kit.validate(createProjectRequestSchema);
  router.post('/project/createProject', ...write(createBody), reply((ctx) => projects.create(user(ctx), createBody.input(ctx))));

  const editBody = kit.validate(editProjectRequestSchema);
  router.post('/project/editProject', ...write(editBody), reply((ctx) => projects.edit(user(ctx), editBody.input(ctx))));

  // No route transaction: `remove` runs its own and removes the project's files once it is committed.
  router.post('/project/deleteProject', kit.auth, kit.tenant, idBody, reply((ctx) => projects.remove(user(ctx), idBody.input(ctx).projectId)));

  const favouriteBody = kit.validate(setFavouriteRequestSchema);
  router.post(
    '/project/setFavourite',
    ...write(favouriteBody),
    reply((ctx) => {
      const { projectId, favourite } = favouriteBody.input(ctx);
      return projects.setFavourite(user(ctx), projectId, favourite);
    }),
  );

  router.post('/project/getProjectPermissionsList', ...read, idBody, reply((ctx) => projects.permissions(user(ctx), idBody.input(ctx).projectId)));

  const grantBody = kit.validate(createProjectPermissionsRequestSchema);
  router.post('/project/createProjectPermissionsList', ...write(grantBody), reply((ctx) => projects.grant(user(ctx), grantBody.input(ctx))));

  const revokeBody = kit.validate(deleteProjectPermissionsRequestSchema);
  router.post('/project/deleteProjectPermissionsByProjectId', ...write(revokeBody), reply((ctx) => projects.revoke(user(ctx), revokeBody.input(ctx))));

  const candidatesBody = kit.validate(collaboratorCandidatesRequestSchema);
  router.post('/project/getCollaboratorCandidates', ...read, candidatesBody, reply((ctx) => projects.candidates(user(ctx), candidatesBody.input(ctx))));

  router.post('/project/getShareSettings', ...read, idBody, reply((ctx) => projects.shareSettings(user(ctx), idBody.input(ctx).projectId)));

  const shareBody = kit.validate(saveShareSettingsRequestSchema);
  router.post('/project/saveShareSettings', ...write(shareBody), reply((ctx) => projects.saveShare(user(ctx), shareBody.input(ctx))));

  router.post('/project/deleteShareSettings', ...write(idBody), reply((ctx) => projects.removeShare(user(ctx), idBody.input(ctx).projectId)));

  const sharedBody = kit.validate(sharedProjectRequestSchema);
  router.post(
    '/project/getSharedProject',
    ...read,
    sharedBody,
    reply(async (ctx) => {
      const view = await projects.shared(user(ctx), sharedBody.input(ctx).token);
      return { ...view, solutions: await solutions.listOf(view.project.projectId) };
    }),
  );

  const moduleBody = kit.validate(sharedModuleRequestSchema);
  router.post(
    '/project/getSharedModule',
    ...read,
    moduleBody,
    reply(async (ctx) => {
      const input = moduleBody.input(ctx);
      return projects.sharedModule(user(ctx), input.token, input.module);
    }),
  );

  const activityQuery = kit.validate(activityRequestSchema, 'query');
  const activityBody = kit.validate(activityRequestSchema);
  router.get('/message/getActivity', ...read, activityQuery, reply((ctx) => projects.activity(user(ctx), activityQuery.input(ctx))));
  router.post('/message/getActivity', ...read, activityBody, reply((ctx) => projects.activity(user(ctx), activityBody.input(ctx))));
}
