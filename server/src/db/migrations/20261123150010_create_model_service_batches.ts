import type { Knex } from 'knex';

/**
 * Batch decisions of model services (spec workflow §2 "decision creation with csv upload", §5:
 * up to 2 GB, comma or semicolon): one row per uploaded csv decided in the background, with its
 * progress, row counts and the blob key of the result csv. `id` is also the batch's call record.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('model_service_batches', (t) => {
    t.string('id', 32).primary();
    t.string('service_id', 32).notNullable();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('file_id', 32).notNullable();
    t.string('file_name', 255).notNullable();
    t.string('delimiter', 1).notNullable();
    t.string('state', 16).notNullable();
    t.bigInteger('bytes_total').notNullable();
    t.bigInteger('bytes_done').notNullable().defaultTo(0);
    t.integer('rows_done').notNullable().defaultTo(0);
    t.integer('rows_failed').notNullable().defaultTo(0);
    t.string('result_key', 255).nullable();
    t.bigInteger('result_size').nullable();
    t.string('error', 500).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.index(['service_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('model_service_batches');
}
