import type { Knex } from 'knex';

/**
 * Projects and what hangs off them (spec platform §3, §6; workflow §3): `projects` (soft-deleted
 * with `deleted_at`, so rows of other modules that point at a project never dangle),
 * `project_favourites` (per user), `project_permissions` (collaboration: edit or view granted to a
 * user or an organisation), `solutions` (soft-deleted too) and `activities` (the recent-activity
 * feed of `message/getActivity`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('projects', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable().references('id').inTable('tenants');
    t.string('owner_id', 32).notNullable().references('id').inTable('users');
    t.string('name', 20).notNullable();
    t.string('colour', 16).notNullable();
    t.string('industry_template', 32).nullable();
    t.string('info', 200).nullable();
    t.string('image_version', 64).nullable();
    t.boolean('locked').notNullable().defaultTo(false);
    t.string('share_token', 32).nullable().unique();
    t.string('share_scope', 16).nullable();
    t.text('share_modules').nullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'owner_id', 'deleted_at']);
    t.index(['tenant_id', 'updated_at']);
  });
  await knex.schema.createTable('project_favourites', (t) => {
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('project_id', 32).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.primary(['user_id', 'project_id']);
  });
  await knex.schema.createTable('project_permissions', (t) => {
    t.string('id', 32).primary();
    t.string('project_id', 32).notNullable().references('id').inTable('projects').onDelete('CASCADE');
    t.string('tenant_id', 32).notNullable();
    t.string('subject_type', 8).notNullable();
    t.string('subject_id', 32).notNullable();
    t.string('permission', 8).notNullable();
    t.string('granted_by', 32).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.unique(['project_id', 'subject_type', 'subject_id']);
    t.index(['tenant_id', 'subject_type', 'subject_id']);
  });
  await knex.schema.createTable('solutions', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).notNullable().references('id').inTable('projects');
    t.string('name', 50).notNullable();
    t.string('data_type', 32).notNullable();
    t.string('goal_type', 32).notNullable();
    t.string('description', 200).nullable();
    t.boolean('pinned').notNullable().defaultTo(false);
    t.dateTime('pinned_at', { precision: 3 }).nullable();
    t.string('creator_id', 32).notNullable();
    t.string('copied_from', 32).nullable();
    t.dateTime('deleted_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['project_id', 'deleted_at']);
  });
  await knex.schema.createTable('activities', (t) => {
    // `seq` orders rows written in the same millisecond.
    t.bigIncrements('seq').primary();
    t.string('id', 32).notNullable().unique();
    t.string('tenant_id', 32).notNullable();
    t.string('project_id', 32).nullable();
    t.string('solution_id', 32).nullable();
    t.string('user_id', 32).notNullable();
    t.string('username', 64).notNullable();
    t.string('action', 32).notNullable();
    t.string('target_name', 100).notNullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'created_at']);
    t.index(['project_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('activities');
  await knex.schema.dropTable('solutions');
  await knex.schema.dropTable('project_permissions');
  await knex.schema.dropTable('project_favourites');
  await knex.schema.dropTable('projects');
}
