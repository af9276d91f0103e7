import type { Knex } from 'knex';

/**
 * Access-token expiry: `model_services.token_expires_at` (null: the token never expires). A call
 * whose token matches but has expired is refused with `deployTokenExpired`; rotating the token
 * sets a new validity.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_services', (t) => {
    t.dateTime('token_expires_at', { precision: 3 }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('model_services', (t) => {
    t.dropColumn('token_expires_at');
  });
}
