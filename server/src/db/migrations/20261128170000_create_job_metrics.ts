import type { Knex } from 'knex';

/** Prefix of the `debug` log lines that kept metrics points before this table (moved here). */
const METRICS_LINE = 'metrics ';

/**
 * Metrics as structured rows (issue 16): one row per (point, name) a job reports while it
 * trains — `point` is the report's number in its job (1, 2, ...), `step` the trainer's step —,
 * read by range (from a step, some names) for the charts and after a point for the live
 * stream. Before, each report was a `debug` log line `metrics {...}` parsed back; those lines are
 * moved into the table and removed from the log.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_metrics', (t) => {
    t.bigIncrements('id').primary();
    t.string('tenant_id', 32).notNullable();
    t.string('job_id', 32).notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.integer('point').notNullable();
    t.integer('step').notNullable();
    t.string('name', 128).notNullable();
    t.double('value').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['job_id', 'point']);
    t.index(['job_id', 'name', 'step']);
    t.index(['tenant_id']);
  });

  // The points kept as log lines, job by job, in their order.
  let afterId = 0;
  const seq = new Map<string, number>();
  for (;;) {
    const lines = (await knex('job_logs as l')
      .join('jobs as j', 'j.id', 'l.job_id')
      .where('l.level', 'debug')
      .andWhere('l.id', '>', afterId)
      .andWhere('l.message', 'like', `${METRICS_LINE}%`)
      .orderBy('l.id')
      .limit(500)
      .select('l.id as id', 'l.job_id as job_id', 'l.message as message', 'l.created_at as created_at', 'j.tenant_id as tenant_id')) as Array<{ id: number | string; job_id: string; message: string; created_at: unknown; tenant_id: string }>;
    if (lines.length === 0) break;
    const rows: Array<Record<string, unknown>> = [];
    for (const l of lines) {
      let values: Record<string, unknown> = {};
      try {
        const parsed = JSON.parse(String(l.message).slice(METRICS_LINE.length)) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
      } catch {
        // a malformed line had no values
      }
      const point = (seq.get(l.job_id) ?? 0) + 1;
      seq.set(l.job_id, point);
      const step = typeof values.step === 'number' && Number.isInteger(values.step) ? values.step : 0;
      for (const [name, value] of Object.entries(values)) {
        if (name === 'step' || typeof value !== 'number' || !Number.isFinite(value)) continue;
        rows.push({ tenant_id: l.tenant_id, job_id: l.job_id, point, step, name: name.slice(0, 128), value, created_at: l.created_at });
      }
    }
    for (let i = 0; i < rows.length; i += 200) await knex('job_metrics').insert(rows.slice(i, i + 200));
    await knex('job_logs')
      .whereIn(
        'id',
        lines.map((l) => l.id),
      )
      .del();
    afterId = Number(lines[lines.length - 1]!.id);
  }
}

export async function down(knex: Knex): Promise<void> {
  // The rows go back to log lines (one per point), then the table goes.
  for (;;) {
    const heads = (await knex('job_metrics').orderBy('id').limit(1000).select('id', 'job_id', 'point')) as Array<{ id: number | string; job_id: string; point: number }>;
    if (heads.length === 0) break;
        const keys = new Map<string, Set<number>>();
    for (const h of heads) (keys.get(h.job_id) ?? keys.set(h.job_id, new Set()).get(h.job_id)!).add(Number(h.point));
    for (const [jobId, points] of keys) {
      const rows = (await knex('job_metrics').where({ job_id: jobId }).whereIn('point', [...points]).orderBy('id').select('point', 'step', 'name', 'value', 'created_at')) as Array<{ point: number; step: number; name: string; value: number; created_at: unknown }>;
      const byPoint = new Map<number, { step: number; created_at: unknown; values: Record<string, number> }>();
      for (const r of rows) {
        const p = byPoint.get(Number(r.point)) ?? { step: Number(r.step), created_at: r.created_at, values: {} };
        p.values[r.name] = Number(r.value);
        byPoint.set(Number(r.point), p);
      }
      for (const p of byPoint.values()) await knex('job_logs').insert({ job_id: jobId, level: 'debug', message: `${METRICS_LINE}${JSON.stringify({ step: p.step, ...p.values })}`, created_at: p.created_at });
      // Every row of these points (some may lie past this batch) goes at once.
      await knex('job_metrics').where({ job_id: jobId }).whereIn('point', [...points]).del();
    }
  }
  await knex.schema.dropTable('job_metrics');
}
