import type { Knex } from 'knex';

/**
 * Imports from data connections run as jobs of the job queue (kind `data.import`): each import
 * keeps the id of its job, whose state settles an import a lost worker or a stop ended.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('data_imports', (t) => {
    t.string('job_id', 32).nullable();
    t.index(['job_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('data_imports', (t) => {
    t.dropIndex(['job_id']);
    t.dropColumn('job_id');
  });
}
