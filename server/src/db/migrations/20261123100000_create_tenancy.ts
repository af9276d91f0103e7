import type { Knex } from 'knex';

/** Tenants and their organisation tree. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tenants', (t) => {
    t.string('id', 32).primary();
    t.string('code', 64).notNullable().unique();
    t.string('name', 100).notNullable();
    t.string('status', 16).notNullable().defaultTo('enabled');
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
  });
  await knex.schema.createTable('organisations', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable().references('id').inTable('tenants').onDelete('CASCADE');
    t.string('parent_id', 32).nullable();
    t.string('name', 100).notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'parent_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organisations');
  await knex.schema.dropTable('tenants');
}
