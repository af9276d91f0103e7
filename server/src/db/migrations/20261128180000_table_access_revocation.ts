import type { Knex } from 'knex';

/**
 * Table access keys can be revoked and their reads are rate-limited:
 * - `datasets.access_epoch`: every access key carries the epoch it was issued under;
 *   `table/revokeAccessKeys` raises it, so every key issued before stops reading.
 * - `rate_window_hits`: one row per counted call of a rate window (bucket, key such as a caller's
 *   address), kept only for the window (see `server/src/http/rate-window.ts`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('datasets', (t) => {
    t.integer('access_epoch').notNullable().defaultTo(0);
  });
  await knex.schema.createTable('rate_window_hits', (t) => {
    t.string('id', 32).primary();
    t.string('bucket', 32).notNullable();
    t.string('hit_key', 128).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['bucket', 'hit_key', 'created_at'], 'rate_window_hits_lookup');
    t.index(['created_at'], 'rate_window_hits_created');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_window_hits');
  await knex.schema.alterTable('datasets', (t) => {
    t.dropColumn('access_epoch');
  });
}
