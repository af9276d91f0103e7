import type { Knex } from 'knex';

/**
 * Rewards checked when saved and initial datasets (issue 17 items 1 and 5):
 * - `objectives.check_state` (`checked`, `broken`, or `unchecked` when it could not be run, e.g.
 *   no data to sample yet; null in rows saved before) and `check_message` (the check's error);
 * - `deductions.dataset_id` and `parameter_searches.dataset_id`: the chosen initial (search)
 *   dataset, a dataset of the project (null: the environment's own data).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('objectives', (t) => {
    t.string('check_state', 16).nullable();
    t.text('check_message').nullable();
  });
  await knex.schema.alterTable('deductions', (t) => {
    t.string('dataset_id', 32).nullable();
  });
  await knex.schema.alterTable('parameter_searches', (t) => {
    t.string('dataset_id', 32).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('parameter_searches', (t) => {
    t.dropColumn('dataset_id');
  });
  await knex.schema.alterTable('deductions', (t) => {
    t.dropColumn('dataset_id');
  });
  await knex.schema.alterTable('objectives', (t) => {
    t.dropColumn('check_message');
    t.dropColumn('check_state');
  });
}
