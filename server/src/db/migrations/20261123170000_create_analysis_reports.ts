import type { Knex } from 'knex';

/**
 * Analysis reports (spec workflow §3 "Analysis report", §4, §5 "Report"): two decision
 * deductions of a solution compared next to the real totals. `name_key` (lower-cased name) is
 * unique per solution; `result` holds the measured figures once the analysis finished.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('analysis_reports', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).notNullable();
    t.string('solution_id', 32).notNullable();
    t.string('name', 50).notNullable();
    t.string('name_key', 50).notNullable();
    t.string('type', 16).notNullable();
    t.string('status', 16).notNullable();
    t.string('remark', 200).notNullable().defaultTo('');
    t.string('decision_a_id', 32).notNullable();
    t.string('decision_b_id', 32).notNullable();
    t.string('real_revenue', 24).notNullable();
    t.string('real_orders', 24).notNullable();
    t.string('real_cost', 24).notNullable();
    t.text('result', mysql ? 'longtext' : undefined).nullable();
    t.string('error', 500).nullable();
    t.string('creator_id', 32).nullable();
    t.dateTime('analysed_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.unique(['solution_id', 'name_key']);
    t.index(['tenant_id', 'project_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('analysis_reports');
}
