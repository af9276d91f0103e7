/**
 * How the licence form's verification code is checked. The licence module does not send or
 * store codes itself: the account area's code service (`modules/codes`, purpose `licence`, bound
 * to the signed-in account) is plugged in through {@link ContactCodeVerifier} in `app.ts`.
 */
import { AppError } from '@decisio/domain';

/** Checks a code sent to an address. */
export interface ContactCodeVerifier {
  /**
   * Resolves when `code` is the valid, unused code last sent to `target` on `channel` for
   * `userId`'s licence application, and uses it up.
   * @throws AppError `verifyCodeMismatch`, `verifyCodeExpired` or `codeUsed`.
   */
  verify(channel: 'email' | 'mobile', target: string, code: string, userId: string): Promise<void>;
}

/**
 * A verifier that refuses every code with `verifyCodeUnavailable`, for a composition without a
 * code service: no application passes unchecked by accident.
 */
export const unavailableCodeVerifier: ContactCodeVerifier = {
  async verify() {
    throw new AppError('verifyCodeUnavailable');
  },
};
