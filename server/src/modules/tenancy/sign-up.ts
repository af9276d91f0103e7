import { AppError } from '@decisio/domain';
import type { Knex } from 'knex';
import { DEFAULT_TENANT_ID } from '../../db/ids';

/**
 * The tenant a sign-up joins: the tenant of its invitation code (link `?invite=<code>`;
 * `inviteInvalid` when no enabled tenant has it), else the enabled tenant whose e-mail domain rule
 * matches the address's domain, else the default tenant.
 */
export async function signUpTenant(knex: Knex, invite: string | undefined, email: string): Promise<string> {
  if (invite) {
    const t = await knex('tenants').where({ invite_code: invite, status: 'enabled' }).first('id');
    if (!t) throw new AppError('inviteInvalid');
    return t.id as string;
  }
  const domain = email.split('@')[1]?.toLowerCase();
  if (domain) {
    const t = await knex('tenants').where({ domain, status: 'enabled' }).first('id');
    if (t) return t.id as string;
  }
  return DEFAULT_TENANT_ID;
}
