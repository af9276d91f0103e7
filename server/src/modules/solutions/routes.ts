import type { Router } from '@koa/router';
import {
  copySolutionRequestSchema,
  createSolutionRequestSchema,
  deleteSolutionRequestSchema,
  editSolutionRequestSchema,
  pinSolutionRequestSchema,
  solutionIdRequestSchema,
  solutionListRequestSchema,
} from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import type { SolutionsService } from './service';

/** Solution calls (`solution/*`): view right to read, edit right (and an unlocked project) to change. */
export function solutionsRoutes(router: Router<AppState>, kit: RouteKit, { solutions }: { solutions: SolutionsService }): void {
  const user = (ctx: AppContext) => ctx.state.user!;
  const read = [kit.auth, kit.tenant] as const;
  const write = (body: ReturnType<typeof kit.validate>) => [kit.auth, kit.tenant, body, kit.transaction] as const;

  const listBody = kit.validate(solutionListRequestSchema);
  router.post('/solution/getSolutionList', ...read, listBody, reply((ctx) => solutions.list(user(ctx), listBody.input(ctx))));

  const idBody = kit.validate(solutionIdRequestSchema);
  router.post('/solution/get', ...read, idBody, reply((ctx) => solutions.get(user(ctx), idBody.input(ctx).solutionId)));

  const createBody = kit.validate(createSolutionRequestSchema);
  router.post('/solution/create', ...write(createBody), reply((ctx) => solutions.create(user(ctx), createBody.input(ctx))));

  const editBody = kit.validate(editSolutionRequestSchema);
  router.post('/solution/edit', ...write(editBody), reply((ctx) => solutions.edit(user(ctx), editBody.input(ctx))));

  const copyBody = kit.validate(copySolutionRequestSchema);
  router.post('/solution/copy', ...write(copyBody), reply((ctx) => solutions.copy(user(ctx), copyBody.input(ctx))));

  const deleteBody = kit.validate(deleteSolutionRequestSchema);
  // No route transaction: `remove` runs its own and removes the solution's files once it is committed.
  router.post('/solution/delete', kit.auth, kit.tenant, deleteBody, reply((ctx) => solutions.remove(user(ctx), deleteBody.input(ctx).solutionId)));

  const pinBody = kit.validate(pinSolutionRequestSchema);
  router.post(
    '/solution/pin',
    ...write(pinBody),
    reply((ctx) => {
      const { solutionId, pinned } = pinBody.input(ctx);
      return solutions.pin(user(ctx), solutionId, pinned);
    }),
  );
}
