import type { Knex } from 'knex';
import type { JobMetricsPoint } from '@decisio/domain';

/** Prefix of the `debug` log line a training writes per metrics report (`engine/kinds.ts reportMetrics`). */
export const METRICS_LINE = 'metrics ';

function isoOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' || /^\d+$/.test(String(value))) return new Date(Number(value)).toISOString();
  const s = String(value);
  return new Date(s.includes('T') ? s : s.replace(' ', 'T') + 'Z').toISOString();
}

/**
 * The metrics points of a job after `afterId` (the id of the last point the caller has), oldest
 * first, at most `limit`: `{id, time, step, <name>: value, ...}`, the shape of
 * `train/getTrainDisplayDataList`'s `points`, so a client appends them as they come.
 */
export async function metricsPointsAfter(knex: Knex, jobId: string, afterId: number, limit = 500): Promise<JobMetricsPoint[]> {
  const rows = (await knex('job_logs')
    .where({ job_id: jobId, level: 'debug' })
    .andWhere('id', '>', afterId)
    .andWhere('message', 'like', `${METRICS_LINE}%`)
    .orderBy('id')
    .limit(limit)
    .select('id', 'message', 'created_at')) as Array<{ id: number | string; message: string; created_at: unknown }>;
  const out: JobMetricsPoint[] = [];
  for (const r of rows) {
    let values: Record<string, number> = {};
    try {
      const parsed = JSON.parse(String(r.message).slice(METRICS_LINE.length)) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, number>;
    } catch {
      // a malformed line is an empty point (its id still moves the cursor on)
    }
    out.push({ ...values, id: Number(r.id), time: isoOf(r.created_at) });
  }
  return out;
}
