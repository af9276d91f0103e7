/**
 * A job's metrics as structured rows (`job_metrics`, migration `20261128170000_create_job_metrics`):
 * each report with a step (`JobContext.reportMetrics(progress, metrics, step)`) is one point of the
 * job's series, numbered 1, 2, ... in the job (`point`), one row per finite metric
 * `(tenant_id, job_id, point, step, name, value, created_at)`. Read back by range (from a step,
 * some names) for charts and after a point for live streams, in the shape the API has always
 * answered: `{id: point, time, step, <name>: value, ...}`.
 */
import type { Knex } from 'knex';

/** One point of a job's series as the API answers it. */
export type MetricsPoint = { id: number; time: string | null; step: number } & Record<string, number | string | null>;

/** Which points `readPoints` answers. */
export interface PointsQuery {
  /** Only points after this one (the last point a caller has). */
  afterPoint?: number | undefined;
  /** Only points of this step or later (closing points, step -1, are always kept). */
  fromStep?: number | undefined;
  /** Only these metrics (a point without any of them is left out). */
  names?: readonly string[] | undefined;
  /** At most this many points (default 10,000). */
  limit?: number | undefined;
}

/** At most this many metrics per point (the first ones reported). */
export const METRICS_PER_POINT = 20;

function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || /^\d+$/.test(String(value))) return new Date(Number(value)).toISOString();
  const s = String(value);
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z').toISOString();
}

/**
 * Writes one point of a job's series: the first `METRICS_PER_POINT` finite metrics, one row each.
 * Only the job's own handler writes its points, one at a time, so the next number is read, not
 * locked. Answers the point's number.
 */
export async function writePoint(knex: Knex, tenantId: string, jobId: string, step: number, metrics: Record<string, number>, now: Date): Promise<number> {
  const last = (await knex('job_metrics').where({ job_id: jobId }).max({ p: 'point' }).first()) as { p: number | string | null } | undefined;
  const point = Number(last?.p ?? 0) + 1;
  const rows: Array<Record<string, unknown>> = [];
  for (const [name, value] of Object.entries(metrics)) {
    if (rows.length >= METRICS_PER_POINT) break;
    if (name === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
    rows.push({ tenant_id: tenantId, job_id: jobId, point, step: Math.trunc(step), name: name.slice(0, 128), value, created_at: now });
  }
  if (rows.length > 0) await knex('job_metrics').insert(rows);
  return point;
}

/** The points of a job, oldest first (see `PointsQuery`). */
export async function readPoints(knex: Knex, jobId: string, q: PointsQuery = {}): Promise<MetricsPoint[]> {
  const limit = Math.max(1, Math.min(q.limit ?? 10_000, 10_000));
  const filter = (b: Knex.QueryBuilder) => {
    b.where({ job_id: jobId });
    if (q.afterPoint !== undefined) b.andWhere('point', '>', q.afterPoint);
    if (q.fromStep !== undefined) b.andWhere((w) => w.where('step', '>=', q.fromStep!).orWhere('step', '<', 0));
    if (q.names !== undefined) b.whereIn('name', [...q.names]);
    return b;
  };
  // The points first (a page of them), then their rows.
  const heads = (await filter(knex('job_metrics')).groupBy('point').orderBy('point').limit(limit).select('point')) as Array<{ point: number | string }>;
  if (heads.length === 0) return [];
  const first = Number(heads[0]!.point);
  const last = Number(heads[heads.length - 1]!.point);
  const rows = (await filter(knex('job_metrics')).andWhere('point', '>=', first).andWhere('point', '<=', last).orderBy('id').select('point', 'step', 'name', 'value', 'created_at')) as Array<{
    point: number | string;
    step: number | string;
    name: string;
    value: number | string;
    created_at: unknown;
  }>;
  const byPoint = new Map<number, MetricsPoint>();
  for (const r of rows) {
    const id = Number(r.point);
    let p = byPoint.get(id);
    if (!p) {
      p = { id, time: isoOf(r.created_at), step: Number(r.step) } as MetricsPoint;
      byPoint.set(id, p);
    }
    p[r.name] = Number(r.value);
  }
  return [...byPoint.values()].sort((a, b) => a.id - b.id);
}
