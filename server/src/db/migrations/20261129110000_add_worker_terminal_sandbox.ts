import type { Knex } from 'knex';

/**
 * How a worker confines a terminal (`terminal_sandbox`, JSON: its bwrap, bwrap's features and
 * where the jobs' work directories are), announced with its SSH address when it registers.
 * Null: it cannot, and `trainSSH/getTrainSSH` refuses a terminal into its trainings
 * (`sshTerminalUnconfined`) rather than open an unconfined shell.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workers', (t) => {
    t.text('terminal_sandbox').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workers', (t) => {
    t.dropColumn('terminal_sandbox');
  });
}
