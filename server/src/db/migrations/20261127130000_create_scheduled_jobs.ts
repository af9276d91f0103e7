import type { Knex } from 'knex';

/**
 * Scheduled jobs (spec platform §3 "Job"): `scheduled_jobs` (a cron expression and a built-in
 * kind per tenant; `revision` makes the claim of a tick one conditional update, so one server
 * fires it), `scheduled_job_runs` (the job history: one row per run, unique per schedule and
 * tick, with the job-queue job that ran it) and `log_settings` (the system log's retention).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_jobs', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('name', 50).notNullable();
    t.string('cron', 120).notNullable();
    t.string('timezone', 64).notNullable();
    t.string('kind', 64).notNullable();
    t.text('params').notNullable();
    t.string('description', 200).notNullable().defaultTo('');
    t.string('status', 16).notNullable();
    t.dateTime('next_run_at', { precision: 3 }).nullable();
    t.dateTime('last_run_at', { precision: 3 }).nullable();
    t.integer('revision').notNullable().defaultTo(0);
    t.string('created_by', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'created_at']);
    t.index(['status', 'next_run_at']);
  });
  await knex.schema.createTable('scheduled_job_runs', (t) => {
    t.string('id', 32).primary();
    t.string('schedule_id', 32).notNullable().references('id').inTable('scheduled_jobs').onDelete('CASCADE');
    t.string('tenant_id', 32).notNullable();
    t.string('trigger_type', 16).notNullable();
    t.dateTime('fired_at', { precision: 3 }).notNullable();
    t.string('job_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.unique(['schedule_id', 'trigger_type', 'fired_at']);
    t.index(['tenant_id', 'created_at']);
    t.index(['job_id']);
  });
  await knex.schema.createTable('log_settings', (t) => {
    t.string('id', 32).primary();
    t.integer('retention_days').notNullable();
    t.string('updated_by', 64).nullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('log_settings');
  await knex.schema.dropTable('scheduled_job_runs');
  await knex.schema.dropTable('scheduled_jobs');
}
