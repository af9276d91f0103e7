import type { Router } from '@koa/router';
import { sshCloseSchema, sshConnectSchema } from '@decisio/domain';
import type { AppContext, AppState } from '../../http/context';
import { reply } from '../../http/envelope';
import type { RouteKit } from '../../http/route';
import type { SshTerminals } from './terminals';

/**
 * `ssh/connect` (host, port, username, password or key -> a session of the caller and a
 * single-use ticket for the terminal socket) and `ssh/close`. Signed-in users only; the
 * password and key are masked in the system log.
 */
export function sshRoutes(router: Router<AppState>, kit: RouteKit, deps: { terminals: SshTerminals }): void {
  const connect = kit.validate(sshConnectSchema);
  const close = kit.validate(sshCloseSchema);
  router.post(
    '/ssh/connect',
    kit.auth,
    kit.tenant,
    connect,
    reply(async (ctx: AppContext) => {
      const u = ctx.state.user!;
      return deps.terminals.open({ id: u.id, username: u.username, tenantId: u.tenantId }, connect.input(ctx));
    }),
  );
  router.post(
    '/ssh/close',
    kit.auth,
    kit.tenant,
    close,
    reply(async (ctx: AppContext) => {
      deps.terminals.close(ctx.state.user!.id, close.input(ctx).sessionId);
      return null;
    }),
  );
}
