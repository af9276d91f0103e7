import type { z } from 'zod';
import type { Page, PidDataDetail, PidDataListItem, PidResult, pidDataCreateSchema, pidDataListSchema, pidDownloadRecordSchema } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import type { PidDataResource } from './policy';

type Row = Record<string, any>;

const iso = (v: unknown): string => (v instanceof Date ? v : new Date(typeof v === 'number' || /^\d+$/.test(String(v)) ? Number(v) : String(v))).toISOString();

/** A list row from its table row. */
export function presentItem(r: Row): PidDataListItem {
  return {
    id: r.id,
    name: r.name,
    fileName: r.file_name,
    rows: Number(r.rows),
    obsDim: Number(r.obs_dim),
    actDim: Number(r.act_dim),
    backend: r.backend,
    improvement: Number(r.improvement),
    controllerCost: Number(r.controller_cost),
    loggedCost: Number(r.logged_cost),
    createdAt: iso(r.created_at),
  };
}

/** Saved feedback-control trial results and noted downloads (spec workflow §7 `pidData`). */
export class PidDataService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {}

  private get knex() {
    return this.db.executor();
  }

  /** Saves a result of the caller. */
  async create(user: { id: string; tenantId: string }, input: z.output<typeof pidDataCreateSchema>): Promise<PidDataListItem> {
    const row = {
      id: newId(),
      tenant_id: user.tenantId,
      user_id: user.id,
      name: input.name,
      file_name: input.fileName,
      rows: input.rows,
      obs_dim: input.obsDim,
      act_dim: input.actDim,
      backend: input.result.backend,
      improvement: input.result.metrics.improvement,
      controller_cost: input.result.metrics.controllerCost,
      logged_cost: input.result.metrics.loggedCost,
      result: JSON.stringify(input.result),
      created_at: this.clock.now(),
    };
    await this.knex('pid_data').insert(row);
    return presentItem(row);
  }

  /** The caller's results, newest first. */
  async list(user: { id: string; tenantId: string }, q: z.output<typeof pidDataListSchema>): Promise<Page<PidDataListItem>> {
    const base = () => {
      const b = this.knex('pid_data').where({ tenant_id: user.tenantId, user_id: user.id });
      if (q.keyword) b.andWhere('name', 'like', `%${q.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      return b;
    };
    const [{ n }] = (await base().count({ n: '*' })) as [{ n: number | string }];
    const rows = await base()
      .select('id', 'name', 'file_name', 'rows', 'obs_dim', 'act_dim', 'backend', 'improvement', 'controller_cost', 'logged_cost', 'created_at')
      .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize);
    return { rows: rows.map(presentItem), total: Number(n), page: q.page, pageSize: q.pageSize };
  }

  /** The owner of a result (for `authorize`), or undefined. */
  async resource(id: string): Promise<(PidDataResource & { row: Row }) | undefined> {
    const row = await this.knex('pid_data').where({ id }).first();
    return row ? { tenantId: row.tenant_id, userId: row.user_id, row } : undefined;
  }

  /** A result with its figures, curves and weights. */
  detail(row: Row): PidDataDetail {
    return { ...presentItem(row), result: JSON.parse(String(row.result)) as PidResult };
  }

  /** Notes a download of the caller. */
  async recordDownload(user: { id: string; tenantId: string }, input: z.output<typeof pidDownloadRecordSchema>): Promise<{ id: string; createdAt: string }> {
    const now = this.clock.now();
    const id = newId();
    await this.knex('pid_download_records').insert({
      id,
      tenant_id: user.tenantId,
      user_id: user.id,
      pid_data_id: input.pidDataId ?? null,
      file_name: input.fileName,
      kind: input.kind,
      improvement: input.improvement ?? null,
      created_at: now,
    });
    return { id, createdAt: now.toISOString() };
  }
}
