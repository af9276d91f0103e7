import type { Knex } from 'knex';

/** Saved links to outside MySQL/MariaDB and PostgreSQL servers (spec platform §3 "Data connection"). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('data_connections', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable().references('id').inTable('tenants');
    t.string('owner_id', 32).notNullable().references('id').inTable('users');
    t.string('type', 16).notNullable();
    t.string('name', 50).notNullable();
    t.string('group_name', 50).notNullable().defaultTo('');
    t.string('driver', 100).notNullable();
    t.string('url', 500).notNullable();
    t.string('zk_address', 200).notNullable().defaultTo('');
    t.string('database_name', 64).notNullable().defaultTo('');
    t.string('username', 64).notNullable();
    /** `v1:<iv>:<tag>:<ciphertext>` (AES-256-GCM, base64), empty when there is no password. */
    t.text('password_enc').notNullable();
    t.string('remark', 200).notNullable().defaultTo('');
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.unique(['tenant_id', 'name']);
    t.index(['tenant_id', 'owner_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('data_connections');
}
