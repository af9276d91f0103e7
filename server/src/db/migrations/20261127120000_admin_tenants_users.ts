import type { Knex } from 'knex';

/**
 * Administration (issue 19), schema only:
 * - `tenants`: the e-mail domain whose sign-ups join it, its invitation code (sign-up link
 *   `?invite=<code>`), quotas of running trainings and model services (`null`: no limit; the
 *   storage quota lives in `storage_quotas`, scope `tenant`);
 * - `users.must_change_password`: set by an admin's reset (or a new account's temporary
 *   password); every call but the password change and sign-out is refused while it is set.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tenants', (t) => {
    t.string('domain', 100).nullable().unique();
    t.string('invite_code', 64).nullable().unique();
    t.integer('max_trainings').nullable();
    t.integer('max_services').nullable();
  });
  await knex.schema.alterTable('users', (t) => {
    t.boolean('must_change_password').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('must_change_password');
  });
  await knex.schema.alterTable('tenants', (t) => {
    t.dropUnique(['domain']);
    t.dropUnique(['invite_code']);
    t.dropColumn('domain');
    t.dropColumn('invite_code');
    t.dropColumn('max_trainings');
    t.dropColumn('max_services');
  });
}
