import type { Router } from '@koa/router';
import type {
  ServerCall,
  ServerGuard,
  ServerHandler,
  ServerInputGuard,
  ServerJobKind,
  ServerPlugin,
  ServerPluginContext,
  ServerRouter,
} from '@decisio/sdk-plugin/server';
import type { z } from 'zod';
import type { Database } from '../db/database';
import { newId } from '../db/ids';
import type { Logger } from '../logger';
import type { AppContext, AppMiddleware, AppState } from '../http/context';
import { reply, type RouteKit } from '../http/route';

/** What the host needs to mount plugins. */
export interface PluginHostDeps {
  db: Database;
  kit: RouteKit;
  logger: Logger;
}

/**
 * Mounts server plugins: each plugin's routes are registered on the `/api/` router through an
 * adapter that turns the SDK's guards into the server's middleware and the handler's return value
 * into the reply envelope. Returns the job kinds the plugins contribute.
 * @throws Error on a duplicate plugin id or job kind, a route that is already registered, or a
 *   route step that is not a guard of the plugin context.
 */
export function mountServerPlugins(
  plugins: readonly ServerPlugin[],
  api: Router<AppState>,
  { db, kit, logger }: PluginHostDeps,
): Map<string, ServerJobKind> {
  const ids = new Set<string>();
  const jobKinds = new Map<string, ServerJobKind>();
  for (const plugin of plugins) {
    if (ids.has(plugin.id)) throw new Error(`Server plugin "${plugin.id}" is registered twice`);
    ids.add(plugin.id);
    for (const job of plugin.jobKinds) {
      if (jobKinds.has(job.kind)) throw new Error(`Job kind "${job.kind}" is contributed twice (plugin "${plugin.id}")`);
      jobKinds.set(job.kind, job);
    }
    if (!plugin.routes) continue;

    const guards = new WeakMap<ServerGuard, AppMiddleware>();
    const calls = new WeakMap<ServerCall, AppContext>();
    const guard = (name: string, mw: AppMiddleware): ServerGuard => {
      const g: ServerGuard = Object.freeze({ kind: 'guard' as const, name });
      guards.set(g, mw);
      return g;
    };
    const ctxOf = (call: ServerCall): AppContext => {
      const ctx = calls.get(call);
      if (!ctx) throw new Error('This call object does not belong to a request of this plugin');
      return ctx;
    };
    const log = {
      info: (msg: string, fields?: Record<string, unknown>) => logger.info(msg, { plugin: plugin.id, ...fields }),
      warn: (msg: string, fields?: Record<string, unknown>) => logger.warn(msg, { plugin: plugin.id, ...fields }),
      error: (msg: string, fields?: Record<string, unknown>) => logger.error(msg, { plugin: plugin.id, ...fields }),
    };
    const context: ServerPluginContext = {
      auth: guard('auth', kit.auth),
      tenant: guard('tenant', kit.tenant),
      transaction: guard('transaction', kit.transaction),
      requirePermission: (permission) => guard(`permission:${permission}`, kit.requirePermission(permission)),
      validate<S extends z.ZodType>(schema: S, source: 'body' | 'query' = 'body'): ServerInputGuard<z.output<S>> {
        const mw = kit.validate(schema, source);
        const g: ServerInputGuard<z.output<S>> = Object.freeze({
          kind: 'guard' as const,
          name: `validate:${source}`,
          input: (call: ServerCall) => mw.input(ctxOf(call)),
        });
        guards.set(g, mw);
        return g;
      },
      newId,
      log,
    };

    const toMiddleware = (chain: (ServerGuard | ServerHandler)[]): AppMiddleware[] => {
      const handler = chain[chain.length - 1];
      if (typeof handler !== 'function') throw new Error(`Plugin "${plugin.id}": a route chain must end with a handler`);
      const steps = chain.slice(0, -1).map((g) => {
        const mw = typeof g === 'object' ? guards.get(g) : undefined;
        if (!mw) throw new Error(`Plugin "${plugin.id}": route steps must be guards from the plugin context`);
        return mw;
      });
      const run = reply(async (ctx) => {
        const call: ServerCall = {
          body: ctx.request.body ?? {},
          query: { ...ctx.query },
          params: { ...((ctx as unknown as { params?: Record<string, string> }).params ?? {}) },
          user: ctx.state.user && {
            id: ctx.state.user.id,
            username: ctx.state.user.username,
            tenantId: ctx.state.user.tenantId,
            roles: [...ctx.state.user.roles],
            permissions: [...ctx.state.user.permissions],
            isSystemRole: ctx.state.user.isSystemRole,
          },
          requestId: ctx.state.requestId,
          locale: ctx.state.locale,
          db: db.executor(),
        };
        calls.set(call, ctx);
        return (await handler(call)) ?? null;
      });
      return [...steps, run];
    };
    const register = (method: 'get' | 'post' | 'put' | 'delete', path: string, chain: (ServerGuard | ServerHandler)[]) => {
      if (!path.startsWith('/')) throw new Error(`Plugin "${plugin.id}": route path "${path}" must start with "/"`);
      const verb = method.toUpperCase();
      if (api.stack.some((layer) => layer.path === `/api${path}` && layer.methods.includes(verb))) {
        throw new Error(`Plugin "${plugin.id}": ${verb} /api${path} is already registered`);
      }
      api[method](path, ...toMiddleware(chain));
    };
    const router: ServerRouter = {
      get: (path, ...chain) => register('get', path, chain),
      post: (path, ...chain) => register('post', path, chain),
      put: (path, ...chain) => register('put', path, chain),
      delete: (path, ...chain) => register('delete', path, chain),
    };
    plugin.routes(router, context);
  }
  return jobKinds;
}
