import type { Knex } from 'knex';

/**
 * Business decisions (spec workflow §2 `/project/business-decision`): a policy deciding every
 * row of a dataset in the background, with progress and the blob key of the result csv.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('business_decisions', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).notNullable();
    t.string('solution_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('policy_id', 32).notNullable();
    t.string('policy_name', 64).notNullable();
    t.string('dataset_id', 32).notNullable();
    t.string('dataset_name', 64).notNullable();
    t.string('state', 16).notNullable();
    t.bigInteger('rows_total').notNullable().defaultTo(0);
    t.bigInteger('rows_done').notNullable().defaultTo(0);
    t.bigInteger('rows_failed').notNullable().defaultTo(0);
    t.string('result_key', 255).nullable();
    t.bigInteger('result_size').nullable();
    t.string('error', 500).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.index(['tenant_id', 'project_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('business_decisions');
}
