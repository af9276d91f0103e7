import type { Knex } from 'knex';

/**
 * `dataset_refresh_claims`: at most one running `datasets.refresh` per dataset, across every
 * server and worker of the database. A run inserts the dataset's row (primary key: a second
 * insert fails) with a lease it renews while it copies; a row whose lease is over (its holder
 * died) is taken over with one conditional update. `scheduled_job_runs.skipped_reason`: why a
 * run did nothing (another refresh of the dataset was running), shown in the job history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dataset_refresh_claims', (t) => {
    t.string('dataset_id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    // The job-queue job holding the claim, and its schedule run.
    t.string('job_id', 64).notNullable();
    t.string('run_id', 32).nullable();
    t.dateTime('claimed_at', { precision: 3 }).notNullable();
    // Epoch ms until which the claim holds unless renewed.
    t.bigInteger('lease_until_ms').notNullable();
  });
  await knex.schema.alterTable('scheduled_job_runs', (t) => {
    t.string('skipped_reason', 500).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scheduled_job_runs', (t) => {
    t.dropColumn('skipped_reason');
  });
  await knex.schema.dropTable('dataset_refresh_claims');
}
