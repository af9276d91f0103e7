import type { Knex } from 'knex';

/**
 * Datasets (spec workflow §3 "Dataset / table"): one row per business, simulation or decision
 * dataset, made from an uploaded file (`source_file_id`, kept while the dataset lives) and held
 * as a Parquet copy in the blob store (`blob_key`, its bytes charged to the creator's quota).
 * `columns` is a JSON list of the columns with their field settings.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('datasets', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('project_id', 32).nullable();
    t.string('name', 64).notNullable();
    t.string('type', 16).notNullable();
    t.string('file_type', 8).notNullable();
    t.string('file_name', 255).notNullable();
    t.string('delimiter', 4).nullable();
    t.string('source_file_id', 32).nullable();
    t.string('blob_key', 255).notNullable();
    t.bigInteger('amount').notNullable();
    t.bigInteger('size').notNullable();
    t.bigInteger('columnar_size').notNullable();
    t.text('columns', mysql ? 'longtext' : undefined).notNullable();
    t.string('status', 16).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'type']);
    t.index(['source_file_id']);
    t.index(['project_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('datasets');
}
