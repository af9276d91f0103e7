import type { Knex } from 'knex';

/**
 * The modelling workflow (spec workflow §3): a solution's decision graph and table correlation
 * (`modelling_patterns`), `schemes` (with their data processing state), `objectives` (reward
 * code), `simulators` (environment trainings), `policies` (policy trainings; the contract read by
 * deploy: `artifact_key` is the blob key prefix of the `savePolicy()` files), `parameter_searches`,
 * `deductions` (simulation and decision), `training_runs` (every job a record ran: create,
 * restore, update) and `hyperparameter_sets`. Trainings point at their job
 * (`job_id`); the job row holds the live state, the record keeps the last state it saw.
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  const long = mysql ? 'longtext' : undefined;
  const scoped = (t: Knex.CreateTableBuilder) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).notNullable();
    t.string('solution_id', 32).notNullable();
  };
  const stamps = (t: Knex.CreateTableBuilder) => {
    t.string('creator_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['solution_id', 'created_at']);
    t.index(['tenant_id', 'project_id']);
  };
  const training = (t: Knex.CreateTableBuilder) => {
    t.string('name', 50).notNullable();
    t.string('algorithm', 16).notNullable();
    t.string('job_id', 32).nullable().index();
    t.string('state', 32).notNullable();
    t.text('config', long).nullable();
  };

  await knex.schema.createTable('modelling_patterns', (t) => {
    t.string('solution_id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.text('graph', long).nullable();
    t.text('files', long).nullable();
    t.text('correlation').nullable();
    t.string('updated_by', 32).nullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
  });
  await knex.schema.createTable('schemes', (t) => {
    scoped(t);
    t.string('name', 50).notNullable();
    t.string('description', 200).nullable();
    t.string('period', 32).notNullable();
    t.dateTime('start_time', { precision: 3 }).notNullable();
    t.dateTime('end_time', { precision: 3 }).notNullable();
    t.text('data', long).nullable();
    t.string('process_state', 16).notNullable();
    t.string('process_job_id', 32).nullable();
    t.string('processed_key', 255).nullable();
    t.integer('rows').nullable();
    stamps(t);
  });
  await knex.schema.createTable('objectives', (t) => {
    scoped(t);
    t.string('name', 20).notNullable();
    t.string('description', 200).nullable();
    t.text('files', long).notNullable();
    stamps(t);
  });
  await knex.schema.createTable('simulators', (t) => {
    scoped(t);
    training(t);
    t.string('scheme_id', 32).notNullable();
    t.double('score').nullable();
    t.string('artifact_key', 255).nullable();
    stamps(t);
  });
  await knex.schema.createTable('policies', (t) => {
    scoped(t);
    training(t);
    t.string('simulator_id', 32).notNullable();
    t.string('objective_id', 32).notNullable();
    t.double('reward').nullable();
    t.string('artifact_key', 255).nullable();
    stamps(t);
  });
  await knex.schema.createTable('parameter_searches', (t) => {
    scoped(t);
    training(t);
    t.string('simulator_id', 32).notNullable();
    t.string('objective_id', 32).notNullable();
    t.double('reward').nullable();
    t.text('result', long).nullable();
    stamps(t);
  });
  await knex.schema.createTable('deductions', (t) => {
    scoped(t);
    t.string('kind', 16).notNullable();
    t.string('name', 50).notNullable();
    t.string('description', 200).nullable();
    t.string('simulator_id', 32).notNullable();
    t.string('policy_id', 32).nullable();
    t.string('objective_id', 32).nullable();
    t.integer('step_size').notNullable();
    t.string('job_id', 32).nullable().index();
    t.string('state', 32).notNullable();
    t.double('score').nullable();
    t.text('result', long).nullable();
    stamps(t);
  });
  await knex.schema.createTable('training_runs', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('record_table', 32).notNullable();
    t.string('record_id', 32).notNullable();
    t.string('job_id', 32).notNullable();
    t.string('reason', 16).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['record_id', 'created_at']);
  });
  await knex.schema.createTable('hyperparameter_sets', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('name', 50).notNullable();
    t.string('description', 200).nullable();
    t.string('train_type', 16).notNullable();
    t.string('algorithm', 50).notNullable();
    t.text('params', long).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const t of ['hyperparameter_sets', 'training_runs', 'deductions', 'parameter_searches', 'policies', 'simulators', 'objectives', 'schemes', 'modelling_patterns']) {
    await knex.schema.dropTableIfExists(t);
  }
}
