import type { Knex } from 'knex';

/**
 * The public electric demo counts its calls in the shared rate window (`rate_window_hits`, bucket
 * `electric-show`) since 2026-11-27; its own call counter `electric_show_calls` is no longer
 * written or read, so it goes. `down` gives back the empty table as it was.
 */
export async function up(knex: Knex): Promise<void> {
  if (await knex.schema.hasTable('electric_show_calls')) await knex.schema.dropTable('electric_show_calls');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('electric_show_calls', (t) => {
    t.string('id', 32).primary();
    t.string('address', 64).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['address', 'created_at']);
    t.index(['created_at']);
  });
}
