import type { Knex } from 'knex';

/** Background copies of a table or a query of a data connection into a dataset. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('data_imports', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable().references('id').inTable('tenants');
    t.string('owner_id', 32).notNullable().references('id').inTable('users');
    t.string('connection_id', 32).notNullable();
    t.string('connection_name', 50).notNullable();
    /** `table` or `sql`. */
    t.string('source_kind', 8).notNullable();
    t.string('source_schema', 200).nullable();
    t.text('source').notNullable();
    t.string('name', 30).notNullable();
    t.string('dataset_type', 16).notNullable();
    t.string('project_id', 32).nullable();
    /** waiting, copying, successful, failed. */
    t.string('state', 16).notNullable();
    t.bigInteger('rows_copied').notNullable().defaultTo(0);
    t.bigInteger('rows_expected').nullable();
    t.string('error_code', 40).nullable();
    t.text('error').nullable();
    t.string('dataset_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.index(['tenant_id', 'owner_id', 'created_at']);
    t.index(['state']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('data_imports');
}
