import type { Knex } from 'knex';
import { TENANT_ADMIN_ROLE_ID } from '../ids';

/**
 * Data only (issue 20 item 5): the shared `tenant-admin` role may publish to the model market for
 * every tenant (`market:public`); the system administrator holds it through `*`, users do not.
 */
const PERMISSION = 'market:public';

async function update(knex: Knex, change: (perms: string[]) => string[]): Promise<void> {
  const row = (await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).first('permissions')) as { permissions: string | string[] } | undefined;
  if (!row) return;
  // MariaDB's JSON column comes back parsed, SQLite's text does not.
  const perms = (typeof row.permissions === 'string' ? JSON.parse(row.permissions) : row.permissions) as string[];
  await knex('roles').where('id', TENANT_ADMIN_ROLE_ID).update({ permissions: JSON.stringify(change(perms)), updated_at: new Date() });
}

export async function up(knex: Knex): Promise<void> {
  await update(knex, (perms) => (perms.includes(PERMISSION) ? perms : [...perms, PERMISSION]));
}

export async function down(knex: Knex): Promise<void> {
  await update(knex, (perms) => perms.filter((p) => p !== PERMISSION));
}
