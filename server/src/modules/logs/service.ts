import { Readable } from 'node:stream';
import type { Knex } from 'knex';
import { LOG_LIMITS, type LogDeleteRequest, type LogFilter, type LogItem, type LogPageRequest, type LogRetention, type Page } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { LogScope } from './policy';
import { csvHeader, csvLine, dateOf, presentLog } from './presenters';

/** The one row of `log_settings`. */
const SETTINGS_ID = 'default';
/** Rows a purge deletes per statement (keeps MariaDB's undo log and SQLite's lock short). */
const PURGE_BATCH = 5000;

/** '!' as the LIKE escape character: a backslash means different things in MySQL and SQLite. */
function likeOf(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => '!' + c)}%`;
}

/** Reads, exports, deletes and expires system-log rows (`logs`). */
export class LogsService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get knex(): Knex {
    return this.db.executor();
  }

  /** The rows of `scope` that `filter` keeps, as a query (no order, no page). */
  private filtered(scope: LogScope, filter: LogFilter): Knex.QueryBuilder {
    const q = this.knex('logs');
    if (scope.tenantId) q.where('tenant_id', scope.tenantId);
    if (filter.tenantId) q.where('tenant_id', filter.tenantId);
    if (filter.username) q.whereRaw("lower(username) like ? escape '!'", [likeOf(filter.username)]);
    const module = filter.module;
    if (module) q.where((w) => w.where('uri', `/api/${module}`).orWhereRaw("uri like ? escape '!'", [`/api/${module.replace(/[!%_]/g, (c) => '!' + c)}/%`]));
    if (filter.call) q.whereRaw("lower(title) like ? escape '!'", [likeOf(filter.call)]);
    if (filter.result === 'success') q.where('response_code', 0);
    if (filter.result === 'failure') q.whereNot('response_code', 0);
    if (filter.type) q.where('type', filter.type);
    if (filter.from) q.where('created_at', '>=', new Date(filter.from));
    if (filter.to) q.where('created_at', '<', new Date(filter.to));
    return q;
  }

  /** A page of rows, newest first. */
  async page(scope: LogScope, request: LogPageRequest): Promise<Page<LogItem>> {
    const base = this.filtered(scope, request);
    const [{ n }] = (await base.clone().count({ n: '*' })) as [{ n: number | string }];
    const rows = await base
      .clone()
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .offset((request.page - 1) * request.pageSize)
      .limit(request.pageSize);
    return { rows: rows.map(presentLog), total: Number(n), page: request.page, pageSize: request.pageSize };
  }

  /**
   * The filtered rows as CSV (UTF-8 with a byte-order mark so spreadsheets read Chinese text),
   * newest first, at most `LOG_LIMITS.exportRows`, read in chunks as the client takes them.
   */
  exportCsv(scope: LogScope, filter: LogFilter): Readable {
    const base = this.filtered(scope, filter);
    async function* lines() {
      yield '\ufeff' + csvHeader();
      const chunk = 1000;
      for (let offset = 0; offset < LOG_LIMITS.exportRows; offset += chunk) {
        const rows = await base
          .clone()
          .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
          .offset(offset)
          .limit(Math.min(chunk, LOG_LIMITS.exportRows - offset));
        if (rows.length === 0) break;
        yield rows.map((r: Record<string, unknown>) => csvLine(presentLog(r))).join('');
        if (rows.length < chunk) break;
      }
    }
    return Readable.from(lines());
  }

  /** Deletes the rows named or older than `before`, within `scope`; resolves with the count. */
  async delete(scope: LogScope, request: LogDeleteRequest): Promise<number> {
    const q = this.knex('logs');
    if (scope.tenantId) q.where('tenant_id', scope.tenantId);
    if (request.ids) q.whereIn('id', request.ids);
    if (request.before) q.where('created_at', '<', new Date(request.before));
    return Number(await q.delete());
  }

  /** The retention setting (the default until someone sets one). */
  async retention(): Promise<LogRetention> {
    const row = await this.knex('log_settings').where('id', SETTINGS_ID).first();
    if (!row) return { days: LOG_LIMITS.retentionDefaultDays, updatedAt: null, updatedBy: null };
    return { days: Number(row.retention_days), updatedAt: dateOf(row.updated_at)?.toISOString() ?? null, updatedBy: row.updated_by ?? null };
  }

  /** Sets the retention in days. */
  async setRetention(days: number, by: string): Promise<LogRetention> {
    const now = this.clock.now();
    const changed = await this.knex('log_settings').where('id', SETTINGS_ID).update({ retention_days: days, updated_by: by, updated_at: now });
    if (Number(changed) === 0) {
      await this.knex('log_settings')
        .insert({ id: SETTINGS_ID, retention_days: days, updated_by: by, updated_at: now })
        .onConflict('id')
        .merge(['retention_days', 'updated_by', 'updated_at']);
    }
    return this.retention();
  }

  /** Deletes every row older than `days` (all tenants), in batches; resolves with the count. */
  async purgeOlderThan(days: number): Promise<{ deleted: number; before: Date }> {
    const before = new Date(this.clock.now().getTime() - days * 86_400_000);
    let deleted = 0;
    for (;;) {
      const ids = (await this.knex('logs').where('created_at', '<', before).limit(PURGE_BATCH).select('id')) as { id: string }[];
      if (ids.length === 0) break;
      deleted += Number(
        await this.knex('logs')
          .whereIn(
            'id',
            ids.map((r) => r.id),
          )
          .delete(),
      );
      if (ids.length < PURGE_BATCH) break;
    }
    return { deleted, before };
  }
}
