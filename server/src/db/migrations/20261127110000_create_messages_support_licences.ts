import type { Knex } from 'knex';

/**
 * Messages of the user centre, support (contact form, tickets), SDK versions, SDK licences, the
 * authorisation service and user keys (issue 18, spec platform §3, §4, §7).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('messages', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('kind', 32).notNullable();
    t.text('params').notNullable();
    /** Makes a notice idempotent (e.g. `licenceExpiring:<id>`); null when repeats are fine. */
    t.string('dedupe_key', 100).nullable();
    t.dateTime('read_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['user_id', 'created_at']);
    t.unique(['user_id', 'dedupe_key']);
  });
  await knex.schema.createTable('contact_requests', (t) => {
    t.string('id', 32).primary();
    t.string('name', 50).notNullable();
    t.string('company', 100).nullable();
    t.string('email', 100).nullable();
    t.string('mobile', 32).nullable();
    t.text('content').notNullable();
    t.string('address', 64).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['created_at']);
  });
  await knex.schema.createTable('work_orders', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('type', 16).notNullable();
    t.string('email', 100).nullable();
    t.string('mobile', 32).nullable();
    t.text('description').notNullable();
    t.string('status', 16).notNullable();
    t.text('reply').nullable();
    t.string('replied_by', 32).nullable();
    t.dateTime('replied_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
  });
  await knex.schema.createTable('sdk_versions', (t) => {
    t.string('id', 32).primary();
    t.string('version', 40).notNullable();
    t.string('edition', 16).notNullable();
    t.text('notes').notNullable();
    t.string('file_name', 100).nullable();
    t.bigInteger('size').nullable();
    t.string('sha256', 64).nullable();
    t.string('blob_key', 200).nullable();
    t.string('created_by', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.unique(['edition', 'version']);
  });
  await knex.schema.createTable('sdk_licences', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('type', 16).notNullable();
    t.string('edition', 16).notNullable();
    t.string('status', 16).notNullable();
    t.string('device_file_name', 50).nullable();
    t.string('device_sha256', 64).nullable();
    t.bigInteger('device_size').nullable();
    t.string('user_key_sha256', 64).nullable();
    t.string('contact_channel', 8).notNullable();
    t.string('contact_target', 100).notNullable();
    t.string('review_opinion', 500).nullable();
    t.string('reviewed_by', 32).nullable();
    t.dateTime('start_at', { precision: 3 }).nullable();
    t.dateTime('end_at', { precision: 3 }).nullable();
    t.text('licence_file', mysql ? 'mediumtext' : undefined).nullable();
    t.string('renewal_of', 32).nullable();
    /** When the "expires in N days" / "expired" messages went out. */
    t.dateTime('expiring_notice_at', { precision: 3 }).nullable();
    t.dateTime('expired_notice_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
    t.index(['status', 'end_at']);
  });
  await knex.schema.createTable('service_managements', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('type', 16).notNullable();
    t.string('company', 100).notNullable();
    t.string('description', 500).notNullable();
    t.string('status', 16).notNullable();
    t.string('review_opinion', 500).nullable();
    t.string('reviewed_by', 32).nullable();
    t.dateTime('start_at', { precision: 3 }).nullable();
    t.dateTime('end_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
  });
  await knex.schema.createTable('user_keys', (t) => {
    t.string('id', 32).primary();
    t.string('user_id', 32).notNullable();
    t.string('key_sha256', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('expires_at', { precision: 3 }).notNullable();
    t.dateTime('revoked_at', { precision: 3 }).nullable();
    t.index(['user_id', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['user_keys', 'service_managements', 'sdk_licences', 'sdk_versions', 'work_orders', 'contact_requests', 'messages']) {
    await knex.schema.dropTableIfExists(table);
  }
}
