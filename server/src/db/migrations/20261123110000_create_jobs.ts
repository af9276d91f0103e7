import type { Knex } from 'knex';

/**
 * The job queue's tables: `workers` (the machines that run jobs, the spec's "virtual machines"),
 * `jobs` (one row per job, the source of truth for its state), `job_logs` (paged by id) and
 * `job_checkpoints` (the bytes a job saved to resume from).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  await knex.schema.createTable('workers', (t) => {
    t.string('id', 64).primary();
    t.string('host', 255).notNullable();
    t.integer('cores').notNullable();
    t.bigInteger('memory').notNullable();
    t.string('gpu_adapter', 255).nullable();
    t.string('engine_version', 64).notNullable();
    t.integer('concurrency').notNullable();
    t.string('status', 16).notNullable();
    t.dateTime('started_at', { precision: 3 }).notNullable();
    t.dateTime('heartbeat_at', { precision: 3 }).notNullable();
    t.index(['status']);
  });
  await knex.schema.createTable('jobs', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).nullable();
    t.string('kind', 128).notNullable();
    t.string('name', 255).notNullable();
    t.string('state', 32).notNullable();
    t.text('payload', mysql ? 'longtext' : undefined).notNullable();
    t.double('progress').notNullable().defaultTo(0);
    t.text('metrics').nullable();
    t.text('error').nullable();
    t.string('worker_id', 64).nullable();
    t.string('pin_worker_id', 64).nullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('max_attempts').notNullable().defaultTo(3);
    t.string('checkpoint_ref', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('started_at', { precision: 3 }).nullable();
    t.dateTime('ended_at', { precision: 3 }).nullable();
    t.index(['tenant_id', 'created_at']);
    t.index(['state']);
    t.index(['worker_id']);
  });
  await knex.schema.createTable('job_logs', (t) => {
    t.bigIncrements('id').primary();
    t.string('job_id', 32).notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    t.string('level', 8).notNullable();
    t.text('message').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['job_id', 'id']);
  });
  await knex.schema.createTable('job_checkpoints', (t) => {
    t.string('id', 32).primary();
    t.string('job_id', 32).notNullable().references('id').inTable('jobs').onDelete('CASCADE');
    if (mysql) t.specificType('data', 'longblob').notNullable();
    else t.binary('data').notNullable();
    t.integer('size').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['job_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('job_checkpoints');
  await knex.schema.dropTable('job_logs');
  await knex.schema.dropTable('jobs');
  await knex.schema.dropTable('workers');
}
