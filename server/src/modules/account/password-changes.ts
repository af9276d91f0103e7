import { AppError, passwordSchema, type ModifyPasswordRequest, type ResetPasswordRequest } from '@decisio/domain';
import type { Clock } from '../../clock';
import type { Database } from '../../db/database';
import type { VerificationCodes } from '../codes/service';
import type { SessionService } from '../sessions/service';
import type { TransportKeys } from './keys';
import type { PasswordHasher } from './passwords';
import { accountKey, type SignInThrottle } from './throttle';

/**
 * Password reset by a code (`index/resetPassword`) and password change by the old password
 * (`user/modifyPassword`). Both take passwords encrypted as at sign-in, check the password rule
 * on the plain text, refuse the old password as the new one, and end every session of the account
 * (a change keeps the caller's own). A reset also lifts a sign-in lock: the code proved the owner.
 */
export class PasswordChanges {
  private mustChangeColumn: Promise<boolean> | null = null;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly keys: TransportKeys,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly throttle: SignInThrottle,
    private readonly codes: VerificationCodes,
  ) {}

  private async newPassword(cipher: string, field: string): Promise<string> {
    const plain = await this.keys.decryptAccountPassword(cipher, field);
    const rule = passwordSchema.safeParse(plain);
    if (!rule.success) throw new AppError('paramInvalid', { [field]: rule.error.issues[0]?.message ?? 'validation.invalid' });
    return plain;
  }

  /** Whether `users.must_change_password` exists (read outside any transaction: SQLite has one writer). */
  private hasMustChange(): Promise<boolean> {
    this.mustChangeColumn ??= this.db.knex.schema.hasColumn('users', 'must_change_password');
    return this.mustChangeColumn;
  }

  /** Writes the new hash (and clears an admin's "must change" mark, where that column exists). */
  private async store(userId: string, plain: string, hasMustChange: boolean): Promise<void> {
    const knex = this.db.executor();
    const update: Record<string, unknown> = { password_hash: await this.passwords.hash(plain), updated_at: this.clock.now() };
    if (hasMustChange) update.must_change_password = false;
    await knex('users').where('id', userId).update(update);
  }

  /**
   * Sets a new password with a code sent for `resetPassword` to the account's e-mail or mobile.
   * @throws AppError `accountNotRegistered`, `verifyCodeMismatch`, `verifyCodeExpired`, `codeUsed`,
   *   `newPasswordSameAsOld`, `paramInvalid` (rule), `passwordNonceInvalid`, `userBanned`.
   */
  async reset(input: ResetPasswordRequest): Promise<{ userId: string }> {
    const byEmail = 'email' in input;
    const recipient = byEmail ? input.email.trim().toLowerCase() : input.mobile.trim();
    const plain = await this.newPassword(input.password, 'password');
    const user = (await this.db.executor()('users').where(byEmail ? 'email' : 'mobile', recipient).first('id', 'password_hash', 'status')) as
      | { id: string; password_hash: string; status: string }
      | undefined;
    if (!user) throw new AppError('accountNotRegistered');
    const target = { channel: byEmail ? ('email' as const) : ('sms' as const), recipient, purpose: 'resetPassword' as const };
    await this.codes.check(target, input.code);
    if (user.status !== 'enabled') throw new AppError('userBanned');
    if (await this.passwords.verify(user.password_hash, plain)) throw new AppError('newPasswordSameAsOld');
    const hasMustChange = await this.hasMustChange();
    await this.db.transaction(async () => {
      await this.codes.consume(target, input.code);
      await this.store(user.id, plain, hasMustChange);
      await this.sessions.revokeAllOf(user.id);
    });
    await this.throttle.clear(accountKey(user.id));
    return { userId: user.id };
  }

  /**
   * Changes the caller's password; their other sessions end.
   * @throws AppError `originalPasswordWrong`, `newPasswordSameAsOld`, `paramInvalid` (rule),
   *   `passwordNonceInvalid`.
   */
  async modify(user: { id: string; sessionId: string }, input: ModifyPasswordRequest): Promise<{ userId: string }> {
    const old = await this.keys.decryptAccountPassword(input.oriPassword, 'oriPassword');
    const plain = await this.newPassword(input.password, 'password');
    const row = (await this.db.executor()('users').where('id', user.id).first('password_hash')) as { password_hash: string } | undefined;
    if (!row) throw new AppError('userNotFound');
    if (!(await this.passwords.verify(row.password_hash, old))) throw new AppError('originalPasswordWrong');
    if (old === plain) throw new AppError('newPasswordSameAsOld');
    await this.store(user.id, plain, await this.hasMustChange());
    await this.db.executor()('sessions').where('user_id', user.id).whereNot('id', user.sessionId).whereNull('revoked_at').update({ revoked_at: this.clock.now() });
    return { userId: user.id };
  }
}
