import type { Clock } from '../clock';
import type { Database } from '../db/database';
import { newId } from '../db/ids';
import type { Logger } from '../logger';
import type { LogType } from '../modules/logs/models';
import type { AppMiddleware } from './context';
import { maskSecrets } from './mask';
import { clientAddress } from './proxy';

/** A system-log row as written (snake_case columns of `logs`). */
export interface AuditEntry {
  id: string;
  title: string;
  type: LogType;
  host: string | null;
  uri: string;
  method: string;
  params: string | null;
  response_code: number;
  http_status: number;
  time_ms: number;
  user_id: string | null;
  username: string | null;
  tenant_id: string | null;
  request_id: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
}

/** Options of the batching writer. */
export interface AuditLogOptions {
  /** Rows that trigger an immediate write. */
  batchSize?: number;
  /** Longest time a row waits in memory, ms. */
  flushIntervalMs?: number;
}

const PARAMS_MAX = 16_000;

function clip(value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null || value === '') return null;
  return value.length > max ? value.slice(0, max) : value;
}

/**
 * Writes system-log rows in batches off the request path: `record` only queues; rows are
 * inserted when `batchSize` are waiting or `flushIntervalMs` has passed. `flush()` writes what is
 * queued (tests, shutdown); a failed write is logged and dropped, never thrown into a request.
 */
export class AuditLog {
  private queue: AuditEntry[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    options: AuditLogOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 100;
    this.flushIntervalMs = options.flushIntervalMs ?? 250;
  }

  /** Queues one row. */
  record(entry: AuditEntry): void {
    this.queue.push(entry);
    if (this.queue.length >= this.batchSize) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushIntervalMs);
      this.timer.unref();
    }
  }

  /** Writes every queued row; resolves when they (and earlier batches) are in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) {
      this.writing = this.writing.then(async () => {
        try {
          // Always the pool, never a request's transaction: a rolled-back call is still logged.
          for (let i = 0; i < batch.length; i += 50) await this.db.knex('logs').insert(batch.slice(i, i + 50));
        } catch (err) {
          this.logger.error('audit log write failed', { rows: batch.length, err });
        }
      });
    }
    return this.writing;
  }
}

/** Options of the audit middleware. */
export interface AuditMiddlewareOptions {
  audit: AuditLog;
  clock: Clock;
  /** Paths audited; default: everything under `/api/`. */
  prefix?: string;
}

/**
 * Records one system-log row for every API call, after the error envelope has shaped the reply:
 * title (the call name unless the route sets `ctx.state.audit.title`), type (`login` when the
 * route says so, else `error` for a failed call, `query` for GET, `operation` otherwise), the
 * parameters as JSON with secrets masked, the reply code, HTTP status, duration and caller.
 */
export function auditTrail({ audit, clock, prefix = '/api/' }: AuditMiddlewareOptions): AppMiddleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(prefix)) return next();
    const started = performance.now();
    try {
      await next();
    } finally {
      const meta = ctx.state.audit;
      if (!meta.skip) {
        const body = ctx.body as { code?: unknown } | undefined;
        const code = body && typeof body === 'object' && typeof body.code === 'number' ? body.code : ctx.status === 200 ? 0 : -1;
        const type: LogType = meta.type ?? (code !== 0 ? 'error' : ctx.method === 'GET' ? 'query' : 'operation');
        const params: Record<string, unknown> = {};
        if (Object.keys(ctx.query).length > 0) params.query = ctx.query;
        const reqBody = ctx.request.body;
        if (reqBody !== undefined && !(typeof reqBody === 'object' && reqBody !== null && Object.keys(reqBody).length === 0)) {
          params.body = reqBody;
        }
        const user = ctx.state.user;
        audit.record({
          id: newId(),
          title: clip(meta.title ?? ctx.path.slice(prefix.length), 100) ?? '-',
          type,
          host: clip(ctx.host, 255),
          uri: clip(ctx.path, 512) ?? '/',
          method: ctx.method,
          params: Object.keys(params).length > 0 ? clip(JSON.stringify(maskSecrets(params)), PARAMS_MAX) : null,
          response_code: code,
          http_status: ctx.status,
          time_ms: Math.round(performance.now() - started),
          user_id: user?.id ?? meta.userId ?? null,
          username: clip(user?.username ?? meta.username, 64),
          tenant_id: user?.tenantId ?? meta.tenantId ?? null,
          request_id: ctx.state.requestId,
          ip: clip(clientAddress(ctx), 64),
          user_agent: clip(ctx.get('user-agent'), 255),
          created_at: clock.now(),
        });
      }
    }
  };
}
