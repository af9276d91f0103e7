import type { Router } from '@koa/router';
import { reviveImportSchema } from '@decisio/domain';
import type { AppState } from '../../http/context';
import { reply, type RouteKit } from '../../http/route';
import { ReviveImport, type ReviveImportDeps } from './service';

/**
 * `POST /api/solution/importRevive`: a REVIVE folder (YAML, data upload, reward) into a
 * solution (see `service.ts`). Token, tenant, body schema; the edit right on the solution's
 * project is checked by the service.
 */
export function reviveImportRoutes(router: Router<AppState>, kit: RouteKit, deps: ReviveImportDeps): void {
  const importer = new ReviveImport(deps);
  const body = kit.validate(reviveImportSchema);
  router.post('/solution/importRevive', kit.auth, kit.tenant, body, reply((ctx) => importer.run(ctx.state.user!, body.input(ctx), ctx.state.locale)));
}
