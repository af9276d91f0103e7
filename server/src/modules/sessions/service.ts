import { createHash, randomBytes } from 'node:crypto';
import { AppError } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import { newId } from '../../db/ids';
import { SessionModel } from './models';

/** sha256 of a token, hex: what the sessions table stores. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A freshly issued token; the plain token is only ever held by the client. */
export interface IssuedToken {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

/** Issues, checks and revokes session tokens. */
export class SessionService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ttlMs: number,
  ) {}

  /** Issues a new token (256 random bits, base64url) for a user. */
  async issue(user: { id: string; tenantId: string }, meta: { ip?: string; userAgent?: string } = {}): Promise<IssuedToken> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.ttlMs);
    const sessionId = newId();
    await this.db.executor()('sessions').insert({
      id: sessionId,
      user_id: user.id,
      tenant_id: user.tenantId,
      token_hash: hashToken(token),
      ip: meta.ip?.slice(0, 64) ?? null,
      user_agent: meta.userAgent?.slice(0, 255) || null,
      created_at: now,
      expires_at: expiresAt,
      revoked_at: null,
    });
    return { token, sessionId, expiresAt };
  }

  /** The session of a token, live or not; `undefined` for an unknown token. */
  async find(token: string): Promise<SessionModel | undefined> {
    return SessionModel.query(this.db.executor()).where('token_hash', hashToken(token)).first();
  }

  /**
   * Checks that a session is usable now.
   * @throws AppError `tokenInvalid` (revoked) or `tokenExpired`.
   */
  assertLive(session: Pick<SessionModel, 'revokedAt' | 'expiresAt'>): void {
    if (session.revokedAt) throw new AppError('tokenInvalid');
    if (session.expiresAt.getTime() <= this.clock.now().getTime()) throw new AppError('tokenExpired');
  }

  /** Revokes one session. */
  async revoke(sessionId: string): Promise<void> {
    await this.db.executor()('sessions').where('id', sessionId).whereNull('revoked_at').update({ revoked_at: this.clock.now() });
  }

  /** Revokes every live session of a user (stopped accounts, password changes). */
  async revokeAllOf(userId: string): Promise<void> {
    await this.db.executor()('sessions').where('user_id', userId).whereNull('revoked_at').update({ revoked_at: this.clock.now() });
  }
}
