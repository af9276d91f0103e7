import type { Knex } from 'knex';

/** Accounts, with the sign-up fields of spec platform §3 and the student certification. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.string('id', 32).primary();
    t.string('tenant_id', 32).notNullable().references('id').inTable('tenants');
    t.string('org_id', 32).nullable().references('id').inTable('organisations').onDelete('SET NULL');
    t.string('username', 64).notNullable().unique();
    t.string('nickname', 64).nullable();
    t.string('email', 191).nullable().unique();
    t.string('mobile', 32).nullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('industry', 100).nullable();
    t.string('occupation', 32).nullable();
    t.string('organisation', 100).nullable();
    t.boolean('is_student').notNullable().defaultTo(false);
    t.string('university', 100).nullable();
    t.string('major', 100).nullable();
    t.string('campus_email', 191).nullable();
    t.string('status', 16).notNullable().defaultTo('enabled');
    t.string('avatar', 512).nullable();
    t.dateTime('last_sign_in_at', { precision: 3 }).nullable();
    t.dateTime('created_at', { precision: 3 }).notNullable();
    t.dateTime('updated_at', { precision: 3 }).notNullable();
    t.index(['tenant_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('users');
}
