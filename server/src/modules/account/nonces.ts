import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';

/** How often (in issued nonces, per process) expired rows are deleted. */
const PRUNE_EVERY = 100;

function digest(nonce: string): string {
  return createHash('sha256').update(nonce).digest('hex');
}

/**
 * One-time nonces carried inside encrypted account passwords (`encryptAccountPassword`). Kept in
 * the `signin_nonces` table (by SHA-256), so every server of the database accepts a nonce that
 * any of them issued, and only once: `consume` deletes the row in one statement and succeeds only
 * for the statement that deleted it.
 */
export class PasswordNonces {
  private issued = 0;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** A fresh nonce (16 random bytes, base64url) and its expiry. */
  async issue(): Promise<{ nonce: string; expiresAt: Date }> {
    const now = this.clock.now().getTime();
    if (this.issued++ % PRUNE_EVERY === 0) await this.prune(now);
    const nonce = randomBytes(16).toString('base64url');
    const expiresAt = now + this.ttlMs;
    await this.db.executor()('signin_nonces').insert({ id: digest(nonce), expires_at_ms: expiresAt });
    return { nonce, expiresAt: new Date(expiresAt) };
  }

  /**
   * Uses a nonce up.
   * @throws AppError `passwordNonceInvalid` when it was never issued, is expired or was used.
   */
  async consume(nonce: string): Promise<void> {
    const now = this.clock.now().getTime();
    const deleted = await this.db.executor()('signin_nonces').where('id', digest(nonce)).andWhere('expires_at_ms', '>', now).del();
    if (deleted !== 1) throw new AppError('passwordNonceInvalid');
  }

  private async prune(now: number): Promise<void> {
    await this.db.executor()('signin_nonces').where('expires_at_ms', '<=', now).del();
  }
}
