import type { Knex } from 'knex';

/**
 * SSH host keys trusted on first use (issue 21 item 4): per user, host name as typed and port,
 * the key's type and its SHA-256 fingerprint (OpenSSH's `SHA256:...`). A later connection to the
 * same host must present the same key, else it is refused (`sshHostKeyChanged`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ssh_host_keys', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('host', 253).notNullable();
    t.integer('port').notNullable();
    t.string('key_type', 64).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.unique(['user_id', 'host', 'port']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ssh_host_keys');
}
