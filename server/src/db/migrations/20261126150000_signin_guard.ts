import type { Knex } from 'knex';

/**
 * Sign-in guard state shared by every server of a database (and kept across restarts):
 * - `signin_nonces`: one-time nonces of `index/getPublicKey`, by SHA-256 of the nonce; a row is
 *   deleted when the nonce is used, expired rows are pruned.
 * - `signin_failures`: failed sign-ins per `guard_key` (`user:<id>`, `name:<sha256 of an unknown login
 *   name>`, `addr:<client address>`), the start of their counting window and the lock expiry.
 * Times are epoch milliseconds so comparisons are the same on SQLite and MySQL.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('signin_nonces', (t) => {
    t.string('id', 64).primary();
    t.bigInteger('expires_at_ms').notNullable().index('signin_nonces_expires_idx');
  });
  await knex.schema.createTable('signin_failures', (t) => {
    t.string('guard_key', 100).primary();
    t.integer('failures').notNullable();
    t.bigInteger('window_start_ms').notNullable();
    t.bigInteger('locked_until_ms').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('signin_failures');
  await knex.schema.dropTable('signin_nonces');
}
