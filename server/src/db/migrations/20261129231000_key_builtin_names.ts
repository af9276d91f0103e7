import type { Knex } from 'knex';
import { ADMIN_ROLE_ID, DEFAULT_TENANT_ID, TENANT_ADMIN_ROLE_ID, USER_ROLE_ID } from '../ids';

/**
 * Data only: the seeded roles and the default tenant store a translation key as their name
 * (`role.<code>`, `tenant.<code>`), as the seeded menus do (`menu.<code>`), so the screens show
 * it in the interface language until an administrator renames it. They were seeded with English
 * names; only a name still equal to the seeded one becomes the key (compared here, not in SQL,
 * where MySQL's collation would also take a rename that differs only in case or trailing spaces).
 * A renamed one keeps its name. `down` turns the keys back into the English names.
 */

const SEEDED: { table: 'roles' | 'tenants'; id: string; name: string; key: string }[] = [
  { table: 'roles', id: ADMIN_ROLE_ID, name: 'System administrator', key: 'role.admin' },
  { table: 'roles', id: TENANT_ADMIN_ROLE_ID, name: 'Tenant administrator', key: 'role.tenant-admin' },
  { table: 'roles', id: USER_ROLE_ID, name: 'User', key: 'role.user' },
  { table: 'tenants', id: DEFAULT_TENANT_ID, name: 'Default', key: 'tenant.default' },
];

/** Sets the name of each seeded row whose name is exactly `from(row)` to `to(row)`. */
async function rename(knex: Knex, from: (s: (typeof SEEDED)[number]) => string, to: (s: (typeof SEEDED)[number]) => string): Promise<void> {
  for (const s of SEEDED) {
    const row = (await knex(s.table).where('id', s.id).first('name')) as { name: string } | undefined;
    if (row?.name === from(s)) await knex(s.table).where('id', s.id).update({ name: to(s) });
  }
}

export async function up(knex: Knex): Promise<void> {
  await rename(
    knex,
    (s) => s.name,
    (s) => s.key,
  );
}

export async function down(knex: Knex): Promise<void> {
  await rename(
    knex,
    (s) => s.key,
    (s) => s.name,
  );
}
