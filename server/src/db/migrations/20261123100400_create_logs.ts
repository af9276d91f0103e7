import type { Knex } from 'knex';

/** The system log (spec platform §3 "Log"): one row per API call. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('logs', (t) => {
    t.string('id', 32).primary();
    t.string('title', 100).notNullable();
    t.string('type', 16).notNullable();
    t.string('host', 255).nullable();
    t.string('uri', 512).notNullable();
    t.string('method', 10).notNullable();
    t.text('params', 'mediumtext').nullable();
    t.integer('response_code').notNullable();
    t.integer('http_status').notNullable();
    t.integer('time_ms').notNullable();
    t.string('user_id', 32).nullable();
    t.string('username', 64).nullable();
    t.string('tenant_id', 32).nullable();
    t.string('request_id', 128).notNullable();
    t.string('ip', 64).nullable();
    t.string('user_agent', 255).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'created_at']);
    t.index(['request_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('logs');
}
