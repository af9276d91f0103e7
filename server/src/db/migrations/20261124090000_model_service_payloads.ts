import type { Knex } from 'knex';

/**
 * Call payloads for policy updates: a service may keep each call's inputs and decisions
 * (`model_services.keep_payloads`, on by default), and the caller may report what followed a
 * decision (`outcome`, via `POST <access address>/outcome`). Large texts: MariaDB `mediumtext`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_services', (t) => {
    t.boolean('keep_payloads').notNullable().defaultTo(true);
  });
  await knex.schema.alterTable('model_service_records', (t) => {
    t.text('inputs', 'mediumtext').nullable();
    t.text('decisions', 'mediumtext').nullable();
    t.text('outcome', 'mediumtext').nullable();
    t.dateTime('outcome_at', { precision: 3 }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_service_records', (t) => {
    t.dropColumn('outcome_at');
    t.dropColumn('outcome');
    t.dropColumn('decisions');
    t.dropColumn('inputs');
  });
  await knex.schema.alterTable('model_services', (t) => {
    t.dropColumn('keep_payloads');
  });
}
