import type { Knex } from 'knex';

/** Session tokens: only the sha256 of a token is stored; expiry and revocation per row. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sessions', (t) => {
    t.string('id', 32).primary();
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('tenant_id', 32).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('ip', 64).nullable();
    t.string('user_agent', 255).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('expires_at', { precision: 3 }).notNullable();
    t.dateTime('revoked_at', { precision: 3 }).nullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sessions');
}
