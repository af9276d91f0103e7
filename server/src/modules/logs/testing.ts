/** Test helpers of the admin modules (system log, scheduled jobs). */
import { newId } from '../../db/ids';
import { createUser, unique, type TestUser } from '../../test/factories';
import type { TestServer } from '../../test/server';

/**
 * A user of `tenantId` holding a tenant role (not a system role) with `permissions`: a tenant
 * administrator when given the admin permissions.
 */
export async function createRoleUser(server: TestServer, permissions: string[], tenantId?: string): Promise<TestUser> {
  const user = await createUser(server, { roles: [], tenantId });
  const roleId = newId();
  const now = new Date();
  await server.app.db.knex('roles').insert({ id: roleId, tenant_id: user.tenantId, code: `r${unique()}`, name: 'Tenant admin', is_system: false, permissions: JSON.stringify(permissions), sort: 5, created_at: now, updated_at: now });
  await server.app.db.knex('user_roles').insert({ user_id: user.id, role_id: roleId });
  return user;
}
