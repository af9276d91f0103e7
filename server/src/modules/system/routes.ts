import type { Middleware } from 'koa';
import type { Database } from '../../db/database';
import { SERVER_VERSION } from '../../version';

/** `GET /healthz` reply. */
export interface Health {
  status: 'ok' | 'error';
  db: 'sqlite' | 'mysql';
  version: string;
}

/**
 * `GET /healthz`: `{status: 'ok', db, version}` with 200 when the database answers, `status:
 * 'error'` with 503 otherwise. Outside `/api/`, not audited, no auth (load balancers call it).
 */
export function healthCheck(db: Database): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/healthz' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    const up = await db.ping();
    ctx.status = up ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: up ? 'ok' : 'error', db: db.kind, version: SERVER_VERSION } satisfies Health;
  };
}
