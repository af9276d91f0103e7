import type { Knex } from 'knex';

/**
 * Online decision services (spec workflow §3 "Model service"): `model_services` (one per deployed
 * policy; soft-deleted with `deleted_at`; `active_policy_key` and `active_name_key` are set while
 * the service exists and cleared on delete, so unique indexes enforce "a policy is deployed once"
 * and "a name is used once per project" without counting deleted rows) and
 * `model_service_records` (one row per decision call).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('model_services', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).notNullable();
    t.string('solution_id', 32).notNullable();
    t.string('policy_id', 32).notNullable();
    t.string('name', 50).notNullable();
    t.string('description', 200).notNullable().defaultTo('');
    t.string('status', 16).notNullable();
    t.string('failure_reason', 500).nullable();
    t.string('token_hash', 64).notNullable();
    t.string('token_hint', 8).notNullable();
    t.string('active_policy_key', 32).nullable().unique();
    t.string('active_name_key', 100).nullable().unique();
    t.string('created_by', 32).notNullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'project_id', 'deleted_at']);
    t.index(['policy_id']);
  });
  await knex.schema.createTable('model_service_records', (t) => {
    t.string('id', 32).primary();
    t.string('service_id', 32).notNullable();
    t.string('tenant_id', 32).notNullable();
    t.dateTime('started_at', { precision: 3 }).notNullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.double('duration_ms').nullable();
    t.string('ip', 64).nullable();
    t.string('result', 8).notNullable();
    t.integer('row_count').notNullable().defaultTo(0);
    t.integer('error_code').nullable();
    t.index(['service_id', 'started_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('model_service_records');
  await knex.schema.dropTable('model_services');
}
