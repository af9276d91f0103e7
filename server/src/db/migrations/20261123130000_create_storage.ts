import type { Knex } from 'knex';

/**
 * Storage: `storage_quotas` (one row per user and per tenant: total and used bytes), `storage_files`
 * (finished blobs: uploads, code files, columnar copies), `uploads` (multipart uploads in
 * progress, their reserved bytes) and `upload_parts` (the parts received so far).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('storage_quotas', (t) => {
    t.string('scope', 8).notNullable();
    t.string('owner_id', 32).notNullable();
    t.string('tenant_id', 32).notNullable();
    t.bigInteger('total_bytes').notNullable();
    t.bigInteger('used_bytes').notNullable().defaultTo(0);
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.primary(['scope', 'owner_id']);
  });
  await knex.schema.createTable('storage_files', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('kind', 16).notNullable();
    t.string('name', 255).notNullable();
    t.string('path', 512).notNullable();
    t.string('blob_key', 255).notNullable();
    t.bigInteger('size').notNullable();
    t.string('content_type', 128).nullable();
    t.string('upload_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.index(['tenant_id', 'user_id', 'kind', 'deleted_at']);
    t.index(['user_id', 'kind', 'path']);
  });
  await knex.schema.createTable('uploads', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('name', 255).notNullable();
    t.string('purpose', 16).notNullable();
    t.bigInteger('size').notNullable();
    t.integer('part_size').notNullable();
    t.integer('part_count').notNullable();
    t.string('state', 16).notNullable();
    t.string('file_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'state']);
  });
  await knex.schema.createTable('upload_parts', (t) => {
    t.string('upload_id', 32).notNullable().references('id').inTable('uploads').onDelete('CASCADE');
    t.integer('part_number').notNullable();
    t.integer('size').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.primary(['upload_id', 'part_number']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('upload_parts');
  await knex.schema.dropTable('uploads');
  await knex.schema.dropTable('storage_files');
  await knex.schema.dropTable('storage_quotas');
}
