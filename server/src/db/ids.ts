import { createHash, randomFillSync, randomUUID } from 'node:crypto';

/** A new id: a random uuid as 32 lower-case hex characters without dashes. */
export function newId(): string {
  return randomUUID().replace(/-/g, '');
}

/**
 * A new id whose first 12 hex characters are the time in ms, then 80 random bits (32 hex in all,
 * like {@link newId}). Rows keyed by it are inserted at the end of the primary-key index instead
 * of at random places: for tables that take thousands of rows a second (decision call records)
 * that keeps inserts cheap on SQLite and InnoDB alike. Sorts by creation time across ms.
 */
export function orderedId(now: number = Date.now()): string {
  if (poolAt + 10 > pool.length) {
    randomFillSync(pool); // one system call per 409 ids (randomBytes(10) made one per id)
    poolAt = 0;
  }
  const random = pool.toString('hex', poolAt, poolAt + 10);
  poolAt += 10;
  return now.toString(16).padStart(12, '0').slice(-12) + random;
}

const pool = Buffer.alloc(4096);
let poolAt = pool.length;

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
/** Id of the seeded shared role `tenant-admin` (administers its own tenant). */
export const TENANT_ADMIN_ROLE_ID = stableId('role:tenant-admin');
