import type { Knex } from 'knex';

/**
 * The public electric demo (`electricShow/*`): decisions a visitor asked for (state, decided
 * power and the result with its charts; no address, no account) and the per-address call
 * counter of its rate limit (rows older than the window are deleted as calls come).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('electric_decisions', (t) => {
    t.string('id', 32).primary();
    t.string('site', 8).notNullable();
    t.double('temperature').notNullable();
    t.boolean('door_open').notNullable();
    t.double('power').notNullable();
    t.double('predicted_next').notNullable();
    t.text('result', mysql ? 'longtext' : undefined).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
  });
  await knex.schema.createTable('electric_show_calls', (t) => {
    t.string('id', 32).primary();
    t.string('address', 64).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['address', 'created_at']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('electric_show_calls');
  await knex.schema.dropTable('electric_decisions');
}
