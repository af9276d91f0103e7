import type { Knex } from 'knex';

/**
 * Issue 20: the template storehouse's recognitions (a user's dataset matched to the templates:
 * the columns it saw and the matches, and the project made from it) and the model market (a
 * published model, one row per version with what was copied: the graph, the report, the
 * scheme's processed data, the environment's and policy's artefact files, the reward).
 */
export async function up(knex: Knex): Promise<void> {
  const mysql = (knex.client.config as { client?: unknown }).client === 'mysql2';
  const long = mysql ? 'longtext' : undefined;
  await knex.schema.createTable('template_recognitions', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('dataset_id', 32).notNullable();
    t.string('dataset_name', 100).notNullable();
    t.integer('rows').notNullable();
    t.text('columns', long).notNullable();
    t.text('matches', long).notNullable();
    t.string('project_id', 32).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'user_id', 'created_at']);
  });
  await knex.schema.createTable('market_models', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('user_id', 32).notNullable();
    t.string('kind', 16).notNullable();
    t.string('name', 50).notNullable();
    t.string('description', 500).nullable();
    t.string('visibility', 16).notNullable();
    t.integer('latest_version').notNullable();
    t.integer('imports').notNullable().defaultTo(0);
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.index(['visibility', 'updated_at']);
    t.index(['tenant_id', 'updated_at']);
    t.index(['user_id']);
  });
  await knex.schema.createTable('market_versions', (t) => {
    t.string('id', 32).primary();
    t.string('model_id', 32).notNullable();
    t.integer('version').notNullable();
    t.string('note', 200).nullable();
    t.string('source_simulator_id', 32).notNullable();
    t.string('source_policy_id', 32).nullable();
    t.text('graph', long).notNullable();
    t.text('report', long).notNullable();
    t.text('scheme', long).notNullable();
    t.text('simulator', long).notNullable();
    t.text('policy', long).nullable();
    t.text('objective', long).nullable();
    t.string('blob_prefix', 255).notNullable();
    t.bigInteger('size').notNullable();
    t.boolean('has_onnx').notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.unique(['model_id', 'version']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('market_versions');
  await knex.schema.dropTable('market_models');
  await knex.schema.dropTable('template_recognitions');
}
