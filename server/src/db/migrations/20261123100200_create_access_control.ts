import type { Knex } from 'knex';

/** Roles (with their permissions as a JSON array), the menu tree, and the links between them. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('roles', (t) => {
    t.string('id', 32).primary();
    // null: a role shared by every tenant (the seeded system roles)
    t.string('tenant_id', 32).nullable().references('id').inTable('tenants').onDelete('CASCADE');
    t.string('code', 64).notNullable();
    t.string('name', 100).notNullable();
    t.boolean('is_system').notNullable().defaultTo(false);
    t.json('permissions').notNullable();
    t.integer('sort').notNullable().defaultTo(0);
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.unique(['tenant_id', 'code']);
  });
  await knex.schema.createTable('menus', (t) => {
    t.string('id', 32).primary();
    t.string('parent_id', 32).nullable();
    t.string('code', 64).notNullable().unique();
    t.string('name', 100).notNullable();
    t.string('path', 255).nullable();
    t.string('icon', 64).nullable();
    t.integer('sort').notNullable().defaultTo(0);
    t.string('permission', 64).nullable();
    t.string('type', 16).notNullable().defaultTo('page');
    t.boolean('hidden').notNullable().defaultTo(false);
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['parent_id', 'sort']);
  });
  await knex.schema.createTable('user_roles', (t) => {
    t.string('user_id', 32).notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('role_id', 32).notNullable().references('id').inTable('roles').onDelete('CASCADE');
    t.primary(['user_id', 'role_id']);
    t.index(['role_id']);
  });
  await knex.schema.createTable('role_menus', (t) => {
    t.string('role_id', 32).notNullable().references('id').inTable('roles').onDelete('CASCADE');
    t.string('menu_id', 32).notNullable().references('id').inTable('menus').onDelete('CASCADE');
    t.primary(['role_id', 'menu_id']);
    t.index(['menu_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('role_menus');
  await knex.schema.dropTable('user_roles');
  await knex.schema.dropTable('menus');
  await knex.schema.dropTable('roles');
}
