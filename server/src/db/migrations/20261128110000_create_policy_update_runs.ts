import type { Knex } from 'knex';

/**
 * Policy updates from recorded calls (the `policies.update` scheduled kind, issue 19 item 6): one
 * row per loop, advanced step by step (`start` -> `environment` -> `policy` -> `evaluate` ->
 * `done`) by the servers' scheduler as the trainings it queued end, so a run survives a server
 * restart and no worker waits for another job. `active_service_key` (the service id while the
 * loop runs, null once it ended; unique) keeps one loop per service at a time; `revision` and
 * `claimed_until` make each step taken by one server.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('policy_update_runs', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('schedule_id', 32).notNullable();
    t.string('schedule_run_id', 32).notNullable();
    t.string('job_id', 32).nullable();
    t.string('service_id', 32).notNullable();
    t.string('active_service_key', 32).nullable().unique();
    t.string('user_id', 32).notNullable();
    t.text('params').notNullable();
    t.string('state', 16).notNullable();
    t.string('step', 16).notNullable();
    t.integer('revision').notNullable().defaultTo(0);
    t.dateTime('claimed_until', { precision: 3 }).nullable();
    t.string('dataset_id', 32).nullable();
    t.integer('calls').nullable();
    t.string('environment_id', 32).nullable();
    t.string('environment_job_id', 32).nullable();
    t.string('policy_before_id', 32).nullable();
    t.string('policy_after_id', 32).nullable();
    t.string('policy_job_id', 32).nullable();
    t.string('evaluate_job_id', 32).nullable();
    t.double('score_before').nullable();
    t.double('score_after').nullable();
    t.boolean('swapped').notNullable().defaultTo(false);
    t.string('reason', 1000).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.index(['state']);
    t.index(['schedule_run_id']);
    t.index(['tenant_id', 'service_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('policy_update_runs');
}
