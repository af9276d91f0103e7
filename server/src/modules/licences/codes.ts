/**
 * How the licence form's verification code is checked. The licence module does not send or
 * store codes itself: the account area's code service (e-mail/SMS codes with expiry and single
 * use) is plugged in through {@link ContactCodeVerifier} in `app.ts`.
 */
import { AppError } from '@decisio/domain';

/** Checks a code sent to an address. */
export interface ContactCodeVerifier {
  /**
   * Resolves when `code` is the valid, unused code last sent to `target` on `channel`, and uses
   * it up.
   * @throws AppError `verifyCodeMismatch`, `verifyCodeExpired` or `codeUsed`.
   */
  verify(channel: 'email' | 'mobile', target: string, code: string): Promise<void>;
}

/**
 * The verifier used while no code service is plugged in: refuses every code with
 * `verifyCodeUnavailable`, so no application passes unchecked by accident. Tests and deployments
 * plug the real one in (`AppOptions` / `app.ts`).
 */
export const unavailableCodeVerifier: ContactCodeVerifier = {
  async verify() {
    throw new AppError('verifyCodeUnavailable');
  },
};
