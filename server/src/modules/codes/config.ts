import { CODE_LIMITS } from '@decisio/domain';

/** Transports and limits of verification codes (see the README, "Verification codes"). */
export interface CodesConfig {
  /** `SMTP_URL` (`smtp://user:pass@host:587`, `smtps://...`); null: e-mail goes to the log only. */
  smtpUrl: string | null;
  /** `MAIL_FROM`: the sender of e-mails. */
  mailFrom: string;
  /** `SMS_URL`: the HTTP(S) endpoint of the SMS provider adapter; null: SMS goes to the log only. */
  smsUrl: string | null;
  /** `SMS_TOKEN`: sent as `Authorization: Bearer` to `SMS_URL` when set. */
  smsToken: string | null;
  /** `CODE_TTL_MINUTES` (default 10). */
  ttlMs: number;
  /** `CODE_RESEND_SECONDS` (default 60). */
  resendMs: number;
  /** `CODE_RECIPIENT_MAX_PER_HOUR` (default 5). */
  perRecipientPerHour: number;
  /** `CODE_ADDRESS_MAX_PER_HOUR` (default 30). */
  perAddressPerHour: number;
  /** Failed sign-ins of an account (`LOGIN_CAPTCHA_AFTER`, default 3) after which sign-in needs a captcha; 0: never. */
  signInCaptchaAfter: number;
  /**
   * Failed sign-ins from one client address, over all login names (`LOGIN_CAPTCHA_AFTER_ADDRESS`,
   * default 10), after which sign-in from that address needs a captcha for every name; 0: never.
   * Counted in the sign-in throttle's window, like `LOGIN_ADDRESS_MAX_FAILURES` (which it should
   * stay under, so that a password spray meets the captcha before the refusal).
   */
  signInCaptchaAfterAddress: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${value}"`);
  return n;
}

/** Reads the code settings from the environment; throws on malformed values (start-up error). */
export function loadCodesConfig(env: NodeJS.ProcessEnv = process.env): CodesConfig {
  const smtpUrl = env.SMTP_URL?.trim() || null;
  if (smtpUrl && !/^smtps?:\/\//i.test(smtpUrl)) throw new Error(`SMTP_URL must start with smtp:// or smtps://, got "${smtpUrl}"`);
  const smsUrl = env.SMS_URL?.trim() || null;
  if (smsUrl) {
    const u = new URL(smsUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`SMS_URL must be an http(s) URL, got "${smsUrl}"`);
  }
  return {
    smtpUrl,
    mailFrom: env.MAIL_FROM?.trim() || 'Decisio <no-reply@localhost>',
    smsUrl,
    smsToken: env.SMS_TOKEN?.trim() || null,
    ttlMs: Math.max(1, int(env, 'CODE_TTL_MINUTES', CODE_LIMITS.ttlSeconds / 60)) * 60_000,
    resendMs: int(env, 'CODE_RESEND_SECONDS', CODE_LIMITS.resendSeconds) * 1000,
    perRecipientPerHour: Math.max(1, int(env, 'CODE_RECIPIENT_MAX_PER_HOUR', CODE_LIMITS.perRecipientPerHour)),
    perAddressPerHour: Math.max(1, int(env, 'CODE_ADDRESS_MAX_PER_HOUR', CODE_LIMITS.perAddressPerHour)),
    signInCaptchaAfter: int(env, 'LOGIN_CAPTCHA_AFTER', 3),
    signInCaptchaAfterAddress: int(env, 'LOGIN_CAPTCHA_AFTER_ADDRESS', 10),
  };
}
