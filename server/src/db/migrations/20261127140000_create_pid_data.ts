import type { Knex } from 'knex';

/**
 * Feedback-control trial results (spec workflow §7 `pidData`): a result the user chose to save
 * (`pid_data`, figures and weights only, never the trial file) and the downloads noted by
 * `saveDownloadRecord` (`pid_download_records`). Both belong to their user.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('pid_data', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('name', 50).notNullable();
    t.string('file_name', 50).notNullable();
    t.integer('rows').notNullable();
    t.integer('obs_dim').notNullable();
    t.integer('act_dim').notNullable();
    t.string('backend', 16).notNullable();
    t.double('improvement').notNullable();
    t.double('controller_cost').notNullable();
    t.double('logged_cost').notNullable();
    t.text('result', mysql ? 'longtext' : undefined).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
  });
  await knex.schema.createTable('pid_download_records', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('pid_data_id', 32).nullable();
    t.string('file_name', 50).notNullable();
    t.string('kind', 16).notNullable();
    t.double('improvement').nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('pid_download_records');
  await knex.schema.dropTable('pid_data');
}
