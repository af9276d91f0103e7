import { z } from 'zod';
import { emailSchema, encryptedSchema, mobileSchema } from './schemas';

/**
 * Verification codes, captchas and password recovery (spec platform §5, §7, §8): codes sent by
 * e-mail (6 letters or digits) or SMS (6 digits), each for one purpose, valid for a while, usable
 * once; sending one needs the characters of a server-drawn captcha picture.
 */

/** How a code travels. */
export const CODE_CHANNELS = ['email', 'sms'] as const;
export type CodeChannel = (typeof CODE_CHANNELS)[number];

/**
 * What a code is for. `signUp` and `resetPassword` are asked before signing in; the others need
 * a session: `changeContact` proves a new e-mail or mobile number, `student` a campus e-mail,
 * `licence` the contact of an SDK licence application.
 */
export const CODE_PURPOSES = ['signUp', 'resetPassword', 'changeContact', 'student', 'licence'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];
/** Purposes that need a session token (the code is bound to the signed-in account). */
export const SIGNED_IN_PURPOSES: readonly CodePurpose[] = ['changeContact', 'student', 'licence'];

/** Lifetime and sending limits of codes (defaults; the server's configuration may change them). */
export const CODE_LIMITS = {
  /** A code is accepted for this long, s. */
  ttlSeconds: 600,
  /** Earliest resend to the same recipient, s (the countdown of the send button). */
  resendSeconds: 60,
  /** Codes one recipient receives per hour. */
  perRecipientPerHour: 5,
  /** Codes one client address asks for per hour, over all recipients. */
  perAddressPerHour: 30,
  /** Wrong tries of one code before it is void. */
  maxAttempts: 5,
  /** A captcha picture is accepted for this long, s. */
  captchaTtlSeconds: 300,
} as const;

/** SMS code: 6 digits. */
export const smsCodeSchema = z.string().trim().regex(/^\d{6}$/, 'validation.smsCode');
/** E-mail code: 6 letters or digits (compared without regard to case). */
export const emailCodeSchema = z.string().trim().regex(/^[A-Za-z0-9]{6}$/, 'validation.emailCode');
/** Either kind of code (where the channel is chosen in the same body). */
export const anyCodeSchema = z.string().trim().regex(/^[A-Za-z0-9]{6}$/, 'validation.emailCode');

/** A solved captcha: its id and the characters typed. */
export const captchaAnswerSchema = z.object({
  captchaId: z.string().regex(/^[0-9a-f]{32}$/, 'validation.captcha'),
  captchaCode: z.string().trim().min(1, 'validation.required').max(8, 'validation.captcha'),
});
export type CaptchaAnswer = z.infer<typeof captchaAnswerSchema>;

/** `captcha/captchaImage` reply data. */
export interface CaptchaImageResponse {
  captchaId: string;
  /** An SVG picture as a `data:image/svg+xml;base64,...` URL. */
  image: string;
  width: number;
  height: number;
  /** ISO date after which the answer is refused. */
  expiresAt: string;
}

/** `index/generateEmailCode` body. */
export const generateEmailCodeRequestSchema = captchaAnswerSchema.extend({
  email: emailSchema,
  purpose: z.enum(CODE_PURPOSES),
});
export type GenerateEmailCodeRequest = z.infer<typeof generateEmailCodeRequestSchema>;

/** `index/generateSmsCode` body. */
export const generateSmsCodeRequestSchema = captchaAnswerSchema.extend({
  mobile: mobileSchema,
  purpose: z.enum(CODE_PURPOSES),
});
export type GenerateSmsCodeRequest = z.infer<typeof generateSmsCodeRequestSchema>;

/** `index/generate*Code` reply data. */
export interface GenerateCodeResponse {
  /** Where it went (masked: `a***@example.com`, `138****0000`). */
  sentTo: string;
  /** ISO date until which the code is accepted. */
  expiresAt: string;
  /** Seconds before another code may be asked for the same recipient. */
  resendSeconds: number;
}

/** `index/verifyEmailCode` body. */
export const verifyEmailCodeRequestSchema = z.object({
  email: emailSchema,
  purpose: z.enum(CODE_PURPOSES),
  code: emailCodeSchema,
});
export type VerifyEmailCodeRequest = z.infer<typeof verifyEmailCodeRequestSchema>;

/** `index/verifySmsCode` body. */
export const verifySmsCodeRequestSchema = z.object({
  mobile: mobileSchema,
  purpose: z.enum(CODE_PURPOSES),
  code: smsCodeSchema,
});
export type VerifySmsCodeRequest = z.infer<typeof verifySmsCodeRequestSchema>;

/** `index/verify*Code` reply data: the code is right and still usable (it is not used up). */
export interface VerifyCodeResponse {
  valid: true;
  expiresAt: string;
}

/** `index/expirationTime` body: optionally the recipient whose resend countdown is asked. */
export const expirationTimeRequestSchema = z
  .object({
    channel: z.enum(CODE_CHANNELS).optional(),
    recipient: z.string().trim().max(191).optional(),
  })
  .strict()
  .or(z.undefined())
  .transform((v) => v ?? {});
export type ExpirationTimeRequest = z.infer<typeof expirationTimeRequestSchema>;

/** `index/expirationTime` reply data. */
export interface ExpirationTimeResponse {
  codeTtlSeconds: number;
  resendSeconds: number;
  /** Seconds left before the recipient named in the body may get another code (0: now). */
  resendInSeconds: number;
}

/**
 * `index/resetPassword` body: the account's e-mail or mobile number, the code sent there for
 * `resetPassword`, and the new password encrypted as at sign-in (with a nonce of `index/getPublicKey`).
 */
export const resetPasswordRequestSchema = z.union([
  z.object({ email: emailSchema, code: emailCodeSchema, password: encryptedSchema }).strict(),
  z.object({ mobile: mobileSchema, code: smsCodeSchema, password: encryptedSchema }).strict(),
]);
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

/** One message of the outbox (`outbox/getOutboxList`, admins; development mode shows codes there). */
export interface OutboxItem {
  id: string;
  channel: CodeChannel;
  /** Full address: the list is for administrators. */
  recipient: string;
  purpose: string | null;
  subject: string;
  /** The text sent; a code is masked once a transport delivered it. */
  body: string;
  /** `logged`: no transport configured (development mode), written to the server log only. */
  status: 'pending' | 'sent' | 'failed' | 'logged';
  error: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** `outbox/getOutboxList` body. */
export const outboxListRequestSchema = z
  .object({
    page: z.coerce.number().int().min(1).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(20),
    recipient: z.string().trim().max(191).optional(),
  })
  .strict();
export type OutboxListRequest = z.infer<typeof outboxListRequestSchema>;

/** `outbox/getOutboxList` reply data. */
export interface OutboxListResponse {
  rows: OutboxItem[];
  total: number;
  page: number;
  pageSize: number;
  /** Which transports are configured; with none, codes only reach the log and this list. */
  transports: { email: 'smtp' | null; sms: 'http' | null };
}
