import type { Knex } from 'knex';

/**
 * A worker's SSH address (`WORKER_SSH_ADDRESS`, `host:port`), announced when it registers: where
 * `trainSSH/getTrainSSH` opens a terminal into the worker that runs a training. Null: none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workers', (t) => {
    t.string('ssh_address', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workers', (t) => {
    t.dropColumn('ssh_address');
  });
}
