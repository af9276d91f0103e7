import type { Knex } from 'knex';

/** The RSA-OAEP key pair passwords are encrypted with in transit; kept so restarts reuse it. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('server_keys', (t) => {
    t.string('id', 32).primary();
    t.string('purpose', 32).notNullable().unique();
    t.string('algorithm', 32).notNullable();
    t.text('public_key').notNullable();
    t.text('private_key').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('server_keys');
}
