import { createHash, randomUUID } from 'node:crypto';

/** A new id: a random uuid as 32 lower-case hex characters without dashes. */
export function newId(): string {
  return randomUUID().replace(/-/g, '');
}

/** A deterministic 32-hex id derived from a stable name (seed rows, so every instance agrees). */
export function stableId(name: string): string {
  return createHash('md5').update(name).digest('hex');
}

/** Id of the default tenant every instance has. */
export const DEFAULT_TENANT_ID = stableId('tenant:default');
/** Id of the seeded system role `admin`. */
export const ADMIN_ROLE_ID = stableId('role:admin');
/** Id of the seeded ordinary role `user`. */
export const USER_ROLE_ID = stableId('role:user');
