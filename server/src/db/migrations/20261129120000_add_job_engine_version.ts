import type { Knex } from 'knex';

/**
 * The engine version a job must run on (`jobs.engine_version`): its project's default algorithm
 * image version when the job was queued. Null: any worker. Only a worker announcing that version
 * (`workers.engine_version`) claims it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.string('engine_version', 64).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('jobs', (t) => {
    t.dropColumn('engine_version');
  });
}
